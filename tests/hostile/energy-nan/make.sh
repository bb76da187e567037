#!/bin/sh
# cpu_energy of sample 25 is <real>nan</real>.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 25 's{<key>cpu_energy</key>\n<integer>\d+</integer>}{<key>cpu_energy</key>\n<real>nan</real>}'
