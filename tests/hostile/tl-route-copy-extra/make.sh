#!/bin/sh
# measurementComplete.routes lists a route 'c' that no routeComplete of
# the measurement logged (and lacks 'b', which one did): the copy is of
# another measurement.  Read, it was ignored with exit 0.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 6 's/"endedAtMs":1700000030001\}/"endedAtMs":1700000030001,"routes":{"a":{"startedAtMs":1700000021000,"endedAtMs":1700000026000,"requests":10000,"req2xx":10000,"others":0,"rpsMean":2000,"bytesRead":1000000},"c":{"startedAtMs":1700000027000,"endedAtMs":1700000030000,"requests":6000,"req2xx":6000,"others":0,"rpsMean":2000,"bytesRead":600000}}}/'
