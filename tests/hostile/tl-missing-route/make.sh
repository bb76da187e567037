#!/bin/sh
# Route b of r1-s1-alpha is gone from the timeline (line 5 deleted), and so
# is its load file: alpha's first round would be averaged over route a only.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'print unless $. == 5' "$r/timeline.jsonl"
rm "$r/bombardier/r1-s1-alpha-b.json"
