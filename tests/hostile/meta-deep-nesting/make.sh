#!/bin/sh
# meta.json nested 100,000 arrays deep: jansson stops at its depth limit
# (2048) with a located error instead of exhausting the stack.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -e 'print "{\"title\": \"x\", \"deep\": ", "[" x 100000, "]" x 100000, "}\n"' > "$r/meta.json"
