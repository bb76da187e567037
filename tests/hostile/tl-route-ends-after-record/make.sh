#!/bin/sh
# Route a's window ends at ...26,800 ms, but its routeComplete was logged
# at ...26,000: the runner takes the window's end before it logs, so the
# window is not this record's (a copy from another attempt).  It was
# accepted and its energy charged to the route, exit 0.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"endedAtMs":1700000026000/"endedAtMs":1700000026800/'
