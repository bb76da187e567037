#!/bin/sh
# Trial a/2 (10 s) has 100,000 requests but an rps of 1000 (10,000 in
# its 10 s): one of them is not this trial's.  Read, its energy per
# request was a tenth of its twin's, exit 0.
r=$1/2026/trials-energy
. "$HOSTILE/lib.sh"
trials_power "$r"
printf 'target,repetition,start_ms,end_ms,requests,rps\n' > "$r/trials/t.csv"
printf 'a,1,1733170001000,1733170011000,10000,1000\na,2,1733170012000,1733170022000,100000,1000\n' >> "$r/trials/t.csv"
