#!/bin/sh
# powerstat -R without -D: only the Watts column, which depending on the
# version is the package alone or every RAPL zone summed (core and uncore
# inside the package too): refused at the header, never read as package.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
perl -0 -i -pe 's/^\{/{\n "erg": {"powerTimezone": "+00:00", "powerStartMs": 1700000000000},/' "$r/meta.json"
printf 'Running for 108.0 seconds (108 samples at 1.0 second intervals).\nPower measurements will start in 0 seconds time.\n\n  Time    User  Nice   Sys  Idle    IO  Run Ctxt/s  IRQ/s  Watts\n22:13:21   3.4   0.0   2.0  94.6   0.0    2   6236   1144   5.28 \n' > "$r/powerstat.txt"
