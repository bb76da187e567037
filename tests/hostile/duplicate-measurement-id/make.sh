#!/bin/sh
# Measurement r1-s2-beta reuses the id r1-s1-alpha, which had completed.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
for n in 8 9 10 11; do line_edit "$r/timeline.jsonl" $n 's/"id":"r1-s2-beta"/"id":"r1-s1-alpha"/'; done
