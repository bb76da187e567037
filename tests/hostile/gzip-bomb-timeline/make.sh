#!/bin/sh
# timeline.jsonl is gzip (erg reads by magic, not name) inflating to 50 MB;
# --max-file 1000000 (args) is the cap on small files, inflated.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
{ cat "$r/timeline.jsonl"; head -c 50000000 /dev/zero | tr "\\0" " "; } | gzip -9n > "$r/t.gz"
mv "$r/t.gz" "$r/timeline.jsonl"
