#!/bin/sh
# The 100 MB one-line timeline.jsonl of timeline-100mb-line, with the cap
# raised (--max-file 200000000, args): read, parsed (a heartbeat, ignored)
# and built within the time limit (about 2 s and 300 MB on the CI machine).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
{ printf '{"ts":1700000001000,"event":"heartbeat","x":"'; head -c 100000000 /dev/zero | tr "\\0" a; printf '"}\n'; } > "$r/big"
cat "$r/timeline.jsonl" >> "$r/big" && mv "$r/big" "$r/timeline.jsonl"
