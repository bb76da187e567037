#!/bin/sh
# cpu_energy of sample 25 is '010': libplist read it as octal 8
# (strtoull base 0), other readers as 10.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 25 's{<key>cpu_energy</key>\n<integer>\d+</integer>}{<key>cpu_energy</key>\n<integer>010</integer>}'
