#!/bin/sh
# measurementStart with "round": 1e300 (no int holds it).  Found by
# fuzz_timeline: session.c converted it with (int)v, undefined behaviour
# (UBSan float-cast-overflow), and the run built; now refused at the line.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 3 's/"round":1/"round":1e300/'
