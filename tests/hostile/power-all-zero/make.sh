#!/bin/sh
# A perf stat log whose every interval counted 0 J of energy-pkg, as a
# counter nobody could read gives (RAPL in a virtual machine, a paranoid
# kernel): it made every window 0 J and the headline 0 mJ/req, ranked
# best, with every check passing.  Refused at the file.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perf_session "$r" 0.00
