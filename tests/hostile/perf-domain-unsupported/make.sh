#!/bin/sh
# perf stat -e power/energy-pkg/,power/energy-ram/ on a processor whose
# DRAM domain perf cannot count: '<not supported>' on every energy-ram
# line, 30 J a second of package.  The unsupported domain made every
# interval's sum "no value" and the file "no energy"; it is left out of
# the sum, with a warning on the page, and the energy is the package's.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perf_session "$r" 30.00 "<not supported>"
