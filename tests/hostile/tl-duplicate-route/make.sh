#!/bin/sh
# Route a of r1-s1-alpha logged twice.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'print; print if $. == 4' "$r/timeline.jsonl"
