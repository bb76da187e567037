#!/bin/sh
# hey's report with "Average: NaN secs" although 10000 requests got a 200:
# a NaN is only hey's way of saying "no response at all".
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"hey.txt"/'
printf '\nSummary:\n  Total:\t5.0000 secs\n  Slowest:\t0.0100 secs\n  Fastest:\t0.0010 secs\n  Average:\t NaN secs\n  Requests/sec:\t2000.0000\n  \n\nStatus code distribution:\n  [200]\t10000 responses\n' > "$r/hey.txt"
