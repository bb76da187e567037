#!/bin/sh
# Route a of r1-s2-beta (a 5 s window, no load file) logs bombardier's
# timeTakenSeconds 60 and 120,000 requests: another run's figures,
# whose requests divided the window's energy (beta ranked first, exit
# 0).  The timeline's own run time is held to the window as a load
# file's is.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# (its bombardier file gone: the timeline is all there is of the window)
rm "$r/bombardier/r1-s2-beta-a.json"
line_edit "$r/timeline.jsonl" 9 's/"requests":10000,"req2xx":10000/"requests":120000,"req2xx":120000,"timeTakenSeconds":60/; s/"rpsMean":[0-9]+/"rpsMean":2000/'
