#!/bin/sh
# timestamp of sample 32 is an <integer> (Unix seconds) instead of a <date>.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 32 's{<date>[^<]*</date>}{<integer>1700000032</integer>}'
