#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
absent '<script>alert'
absent '<svg onload'
absent '<img src=x'
absent 'href="javascript:'
absent "href='javascript:"
absent 'xlink:href="javascript:'
# Markdown exports: every '<' of a name is backslash-escaped (CommonMark
# reads "\<" as a literal '<'), so a README that includes them is safe.
absent_re '(?<!\\)<' '*.md'
present '\<svg onload' runs/2023/run/tables.md
present '&lt;script&gt;alert(1)&lt;/script&gt; title' index.html
present '&lt;script&gt;alert(5)&lt;/script&gt;' runs/2023/run/index.html
present '&quot;&gt;&lt;svg onload=alert(8)&gt;' runs/2023/run/index.html
present 'https://example.com/' runs/2023/run/index.html
# A name shaped like a Markdown link stays text in the export.
absent_re '(?<!\\)\[x' '*.md'
