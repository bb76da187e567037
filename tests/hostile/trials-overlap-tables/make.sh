#!/bin/sh
# Two tables of one trials run, each without overlaps of its own: t.csv's
# a/2 (11 to 21 s) and u.csv's c/1 (15 to 25 s) ran at the same time,
# and each was charged all the power of the 6 s they share, exit 0.
# Refused at the later table's trial.  (The same trial listed in both
# tables, the same start and end, is not an overlap:
# trials-same-in-two-tables.)
r=$1/2026/trials-energy
. "$HOSTILE/lib.sh"
trials_power "$r"
printf 'target,repetition,start_ms,end_ms,requests\n' > "$r/trials/t.csv"
printf 'a,1,1733170001000,1733170010000,10000\na,2,1733170011000,1733170021000,10000\n' >> "$r/trials/t.csv"
printf 'target,repetition,start_ms,end_ms,requests\n' > "$r/trials/u.csv"
printf 'c,1,1733170015000,1733170025000,10000\nc,2,1733170030000,1733170040000,10000\n' >> "$r/trials/u.csv"
