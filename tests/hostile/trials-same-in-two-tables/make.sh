#!/bin/sh
# Two tables of one trials run list the same trials (the same start and
# end), each with its own metrics: not an overlap, the run builds, and
# each table's trials get their energy.
r=$1/2026/trials-energy
. "$HOSTILE/lib.sh"
trials_power "$r"
printf 'target,repetition,start_ms,end_ms,requests\n' > "$r/trials/t.csv"
printf 'a,1,1733170001000,1733170010000,10000\na,2,1733170011000,1733170021000,10000\n' >> "$r/trials/t.csv"
printf 'target,repetition,start_ms,end_ms,latency_p99_ms\n' > "$r/trials/u.csv"
printf 'a,1,1733170001000,1733170010000,3.5\na,2,1733170011000,1733170021000,3.7\n' >> "$r/trials/u.csv"
