#!/bin/sh
# cpu_energy of sample 27 is negative.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 27 's{<key>cpu_energy</key>\n<integer>\d+</integer>}{<key>cpu_energy</key>\n<integer>-20000</integer>}'
