#!/bin/sh
# measurementComplete.routes repeats each route's routeComplete figures
# (the runner writes both, energy-method.md); here the copy of route a
# says 12,000 requests where its routeComplete says 10,000.  erg read
# only the routeComplete and published its figure with exit 0; one of the
# two is not this run's, so it is an error at the measurementComplete.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 6 's/"endedAtMs":1700000030001\}/"endedAtMs":1700000030001,"routes":{"a":{"startedAtMs":1700000021000,"endedAtMs":1700000026000,"requests":12000,"req2xx":12000,"others":0,"rpsMean":2000,"bytesRead":1000000},"b":{"startedAtMs":1700000027000,"endedAtMs":1700000030000,"requests":6000,"req2xx":6000,"others":0,"rpsMean":2000,"bytesRead":600000}}}/'
