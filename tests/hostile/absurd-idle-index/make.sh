#!/bin/sh
# An idleWindow with "index": 1.7e12 (no int holds it).  Found by
# fuzz_timeline: session.c read_idle() converted it with (int)v, undefined
# behaviour (UBSan float-cast-overflow), and the run built; now refused at
# the line, as "round" and "slot" are.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 2 's/"index":0/"index":1.7e12/'
