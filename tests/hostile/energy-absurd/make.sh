#!/bin/sh
# cpu_energy of sample 24, inside the first load window, is 1e300 mJ
# (a 1e294 W processor).  Finite and not negative, but no measurement:
# erg must not publish it as one.  Before the fix, erg built the run and
# published the number without a word.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 24 's{<key>cpu_energy</key>\n<integer>\d+</integer>}{<key>cpu_energy</key>\n<real>1e300</real>}'
