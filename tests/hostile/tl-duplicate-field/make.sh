#!/bin/sh
# routeComplete with "rpsMean" given twice, the second time another value.
# jansson kept the last one silently: the window's rps (and the headline)
# came from a value the runner never wrote there.  Now an error at the line.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"rpsMean":2000,/"rpsMean":2000,"rpsMean":2600,/'
