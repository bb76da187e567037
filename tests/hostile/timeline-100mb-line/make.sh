#!/bin/sh
# A 100 MB timeline.jsonl that is one line: refused by size before it is
# read (the default cap on small files is 64 MiB), within the time limit.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
{ printf '{"ts":1700000001000,"event":"heartbeat","x":"'; head -c 100000000 /dev/zero | tr "\\0" a; printf '"}\n'; } > "$r/big"
cat "$r/timeline.jsonl" >> "$r/big" && mv "$r/big" "$r/timeline.jsonl"
