#!/bin/sh
# Sample 40 has a second 'processor' dict after the first, with ten
# times the energy: libplist kept the last one silently.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 40 's{(<key>thermal_pressure</key>)}{<key>processor</key>\n<dict>\n<key>cpu_energy</key>\n<integer>99000</integer>\n</dict>\n$1}'
