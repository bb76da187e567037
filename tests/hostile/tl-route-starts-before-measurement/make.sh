#!/bin/sh
# Route a of r1-s1-alpha starts at ...20,500 ms, before its measurement
# started (measurementStart at ...21,000): the window holds time of the
# idle window before it, or of another measurement.  It was accepted with
# exit 0.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"startedAtMs":1700000021000/"startedAtMs":1700000020500/'
