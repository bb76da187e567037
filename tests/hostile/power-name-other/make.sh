#!/bin/sh
# A file power.plistX beside the stream: not read, and said so.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
echo "notes" > "$r/power.plistX"
