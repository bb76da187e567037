#!/bin/sh
# timeline.jsonl is a symbolic link to a file outside the run: refused,
# as a loadFile or notes link that leaves the run is.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
mkdir -p "$1/shared"
mv "$r/timeline.jsonl" "$1/shared/t.jsonl"
ln -s ../../shared/t.jsonl "$r/timeline.jsonl"
