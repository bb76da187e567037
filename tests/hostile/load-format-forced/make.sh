#!/bin/sh
# "loadFormat":"oha" on a bombardier file: the format is forced, not
# detected, so the file fails as oha output.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFormat":"oha"/'
