#!/bin/sh
# Bidirectional controls (U+202A..U+202E, U+2066..U+2069) and other
# controls in every text of a summary run: the title, the machine, the
# software, a caveat, the source, a column name, table cells (a target, a
# route, a text column), the notes.  A raw U+202E reorders the page text
# after it ("evil<RLO>gpj.exe" reads "evilexe.jpg").  The run builds; no
# page or export (HTML, SVG, Markdown, CSV) holds a raw bidirectional
# control: each shows as "[U+202E]"; C0 and C1 controls are dropped.
# results.json keeps the text exactly as read (JSON escapes).
r=$1/2023/summary
mkdir -p "$r/tables"
cat > "$r/run.json" <<'JSON'
{"title": "Title \u202Eevil\u202C end", "date": "2026-11-05",
 "machine": {"id": "m", "model": "Mac \u2066mini\u2069", "chip": "M\u202D4"},
 "software": {"bun": "1.2\u202B.3"}, "caveats": ["cave\u2067at\u2069 \u0085\u001b[2J"],
 "source": {"title": "src \u202Aa\u202C", "note": "n\u2068ote\u2069"},
 "notes": "notes.md",
 "tables": [{"file": "tables/t.csv", "title": "T \u202Ex", "caption": "c\u202Ey"}]}
JSON
printf 'target,route,rps,comm\342\200\256ent\nel\342\200\256ysia,ge\342\201\247t /,184915,"evil\342\200\256gpj.exe \302\205\033[31m"\nbun,get /,179218,plain\n' > "$r/tables/t.csv"
printf '# Notes \342\200\256 here\n\nA line with \342\201\246isolate\342\201\251 and [a link](t.csv "ti\342\200\256tle").\n' > "$r/notes.md"
