#!/bin/sh
# Measurement r1-s1-alpha without any route (lines 4 and 5 deleted).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'print unless $. == 4 || $. == 5' "$r/timeline.jsonl"
