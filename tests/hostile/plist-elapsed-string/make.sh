#!/bin/sh
# elapsed_ns of sample 30 is a <string>.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 30 's{<integer>1000000000</integer>}{<string>1000000000</string>}'
