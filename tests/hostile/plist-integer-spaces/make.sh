#!/bin/sh
# cpu_energy of sample 25 is ' 2000 ' with spaces inside the element:
# libplist skips the leading space, Apple's writer never writes one.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 25 's{<key>cpu_energy</key>\n<integer>(\d+)</integer>}{<key>cpu_energy</key>\n<integer> $1 </integer>}'
