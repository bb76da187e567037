#!/bin/sh
# nvidia-smi writes local time without a zone; with no erg.powerTimezone
# in meta.json erg cannot place it on the timeline's Unix epoch.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
printf 'timestamp, index, power.draw [W]\n2023/11/14 23:13:20.000, 0, 30.00 W\n' > "$r/nvidia-smi.csv"
