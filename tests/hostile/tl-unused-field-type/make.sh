#!/bin/sh
# Route a of r1-s1-alpha logs the runner's rpsMax as a string.  erg does
# not use rpsMax, rpsP50, rpsP99 or latencyStddevUs, and did not look at
# them: a field of the wrong type passed unnoticed.  Held to their type.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"rpsMean":2000/"rpsMean":2000,"rpsMax":"lots"/'
