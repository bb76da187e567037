#!/bin/sh
# The measurementComplete of r1-s2-beta deleted from a session that ended
# well.  Its end (and server memory) were published as unknown, unnoticed;
# now an error at its measurementStart.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'print unless /"event":"measurementComplete","id":"r1-s2-beta"/' "$r/timeline.jsonl"
