#!/bin/sh
# The routeComplete of route a of r1-s1-alpha is logged before its
# measurementStart (lines 3 and 4 swapped): the restart logic dropped it.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'if ($. == 3) { $h = $_; next } print; print $h if $. == 4' "$r/timeline.jsonl"
