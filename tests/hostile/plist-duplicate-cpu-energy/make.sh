#!/bin/sh
# Sample 40's processor dict has cpu_energy twice.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 40 's{(<key>gpu_energy</key>)}{<key>cpu_energy</key>\n<integer>1</integer>\n$1}'
