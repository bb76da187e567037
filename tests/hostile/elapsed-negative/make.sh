#!/bin/sh
# elapsed_ns of sample 34 is negative.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 34 's{<key>elapsed_ns</key><integer>1000000000</integer>}{<key>elapsed_ns</key><integer>-1000000000</integer>}'
