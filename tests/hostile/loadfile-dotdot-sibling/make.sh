#!/bin/sh
# loadFile climbs out of the run into a sibling run of the same archive.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
small "$1/2023/other"
line_edit "$r/timeline.jsonl" 14 's/}$/,"loadFile":"..\/other\/bombardier\/r2-s1-beta-a.json"}/'
