#!/bin/sh
# routeComplete with "rpsMean": -2000.  A rate below zero was published as
# the window's rps and averaged into the headline; now an error at the line
# (bombardier's own rps.mean is held to the same).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"rpsMean":2000,/"rpsMean":-2000,/'
