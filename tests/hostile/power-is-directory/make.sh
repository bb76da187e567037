#!/bin/sh
# power.plist is a directory: the run used to become "throughput only".
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
mkdir "$r/power.plist"
