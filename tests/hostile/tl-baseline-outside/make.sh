#!/bin/sh
# idle-01's baseline ends 8.5 s after the idle window itself (inside the
# next measurement's load).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 7 's/"baselineEndMs":1700000039500/"baselineEndMs":1700000049500/'
