#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
for g in '*.html' '*.svg' '*.md' '*.csv'; do
	absent_re '\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$g"
done
present 'al[U+202E]pha' runs/2023/run/index.html
present 'b[U+2066]x[U+2069]' runs/2023/run/index.html
present 'al[U+202E]pha' runs/2023/run/headline.csv
present 'b[U+2066]x[U+2069]' runs/2023/run/routes.csv
present 'al[U+202E]pha' compare/index.html
