#!/bin/sh
# Route a of r1-s1-alpha: the timeline's rpsMean 20000 against its
# bombardier file's rps.mean 2000.  The timeline's value was published
# as the throughput (ten times the file's), exit 0.  The runner copies
# rpsMean from the file (energy-method.md): they must agree.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"rpsMean":2000/"rpsMean":20000/'
