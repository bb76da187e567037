#!/bin/sh
# "loadFormat":"bombardir": no such format.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFormat":"bombardir"/'
