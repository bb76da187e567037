#!/bin/sh
# cpu_energy of sample 25 is '12abc': libplist read it as 12 (strtoull
# stops at the first non-digit) and the window got 12 mJ.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 25 's{<key>cpu_energy</key>\n<integer>\d+</integer>}{<key>cpu_energy</key>\n<integer>12abc</integer>}'
