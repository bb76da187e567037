#!/bin/sh
# A framework name with an escape sequence: erg derives the default load
# file name (bombardier/r<round>-s<slot>-<framework>-<route>.json) from it,
# and refuses control characters in paths, located at the timeline line.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
all_edit "$r/timeline.jsonl" 's/"framework":"alpha"/"framework":"al\\u001b[2Jpha"/g'
