#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
# No raw U+202A..U+202E or U+2066..U+2069, in any page or export.
for g in '*.html' '*.svg' '*.md' '*.csv'; do
	absent_re '\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$g"
done
absent_re '\x1b|\xc2\x85' '*.csv'
p=runs/2023/summary
present 'Title [U+202E]evil[U+202C] end' $p/index.html
present '<title>Title [U+202E]evil[U+202C] end' $p/index.html
present 'el[U+202E]ysia' $p/index.html
present 'evil[U+202E]gpj.exe' $p/index.html
present 'comm[U+202E]ent' $p/index.html
present 'Mac [U+2066]mini[U+2069]' $p/index.html
present 'cave[U+2067]at[U+2069]' $p/index.html
present '>Notes [U+202E] here</h' $p/index.html
present 'title="ti[U+202E]tle"' $p/index.html
present 'el[U+202E]ysia,ge[U+2067]t /,184915,evil[U+202E]gpj.exe [31m' $p/t.csv
present 'comm[U+202E]ent' $p/t.csv
present 'el\[U+202E\]ysia' $p/tables.md
present 'evil\[U+202E\]gpj.exe' $p/tables.md
present 'el[U+202E]ysia' compare/index.html
# results.json keeps the data as read (JSON strings hold any character)
present "$(printf '"Title \342\200\256evil\342\200\254 end"')" $p/results.json
