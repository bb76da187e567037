#!/bin/sh
# elapsed_ns says 2 s per sample while the timestamps advance 1 s.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
all_edit "$r/power.plist" 's{<integer>1000000000</integer>}{<integer>2000000000</integer>}'
