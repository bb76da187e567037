#!/bin/sh
# The P-cluster freq_hz of sample 25 is the hex float '0x1p31', which
# atof reads as 2147483648: no plist writer prints that.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 25 's{(<string>P-Cluster</string><key>freq_hz</key>)<real>[^<]*</real>}{$1<real>0x1p31</real>}'
