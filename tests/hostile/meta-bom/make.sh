#!/bin/sh
# meta.json and timeline.jsonl start with a UTF-8 byte order mark, as some
# Windows editors write them.  RFC 8259 allows a parser to ignore it; erg
# does, and the run builds like the small session.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
printf '\357\273\277' > "$r/meta.bom" && cat "$r/meta.json" >> "$r/meta.bom" && mv "$r/meta.bom" "$r/meta.json"
printf '\357\273\277' > "$r/tl.bom" && cat "$r/timeline.jsonl" >> "$r/tl.bom" && mv "$r/tl.bom" "$r/timeline.jsonl"
