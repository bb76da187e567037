#!/bin/sh
# A heartbeat whose ts goes back 50 s: a warning, the build succeeds.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 8 '$_ = "{\"ts\":1700000000000,\"event\":\"heartbeat\"}\n" . $_'
