#!/bin/sh
# A powercap log whose package counter goes back to near 0 (reset by a
# write to energy_uj): as a wrap it would mean ~262 kW; refused.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{ echo "# powercap-log v1 host=t clock=CLOCK_REALTIME"; echo "# zone,intel-rapl:0,package-0,262143328850"; echo "t_ns,zone,energy_uj"
  echo "1700000000500000000,intel-rapl:0,1000000000"; echo "1700000050500000000,intel-rapl:0,1500000000"; echo "1700000106500000000,intel-rapl:0,5000"; } > "$r/powercap.csv"
