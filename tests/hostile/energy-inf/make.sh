#!/bin/sh
# gpu_energy of sample 26 is <real>inf</real>.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 26 's{<key>gpu_energy</key>\n<integer>0</integer>}{<key>gpu_energy</key>\n<real>inf</real>}'
