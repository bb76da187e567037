#!/bin/sh
# perf stat's own header says it started at 22:13:29 UTC while meta.json
# erg.powerStartMs (and powerTimezone Z) says 22:13:19: erg.powerStartMs
# won silently and the whole power series could be 10 s off.  Refused
# at the header.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perf_session "$r" 30.00
perl -0 -i -pe 's/"powerStartMs": 1699999999000/"powerStartMs": 1699999999000, "powerTimezone": "Z"/' "$r/meta.json"
sed -i 's/^# started on Tue Nov 14 22:13:19 2023$/# started on Tue Nov 14 22:13:29 2023/' "$r/perf-stat.csv"
