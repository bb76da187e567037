#!/bin/sh
# Trials a/1 (1 to 21 s) and a/2 (11 to 31 s) overlap by 10 s: the power
# of those seconds was counted in both trials' energy, exit 0 (an energy
# session's overlapping windows are an error).  Refused at the later one.
r=$1/2026/trials-energy
. "$HOSTILE/lib.sh"
trials_power "$r"
printf 'target,repetition,start_ms,end_ms,requests\n' > "$r/trials/t.csv"
printf 'a,1,1733170001000,1733170021000,10000\na,2,1733170011000,1733170031000,10000\n' >> "$r/trials/t.csv"
printf 'b,1,1733170032000,1733170042000,20000\nb,2,1733170043000,1733170053000,20000\n' >> "$r/trials/t.csv"
