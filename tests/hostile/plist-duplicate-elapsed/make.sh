#!/bin/sh
# Sample 40 has elapsed_ns twice (the second 10 s).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 40 's{(<key>hw_model</key>)}{<key>elapsed_ns</key><integer>10000000000</integer>\n$1}'
