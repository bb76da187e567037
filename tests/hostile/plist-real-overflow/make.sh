#!/bin/sh
# The P-cluster freq_hz of sample 25 is '1e999': beyond a double (atof
# gave inf).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 25 's{(<string>P-Cluster</string><key>freq_hz</key>)<real>[^<]*</real>}{$1<real>1e999</real>}'
