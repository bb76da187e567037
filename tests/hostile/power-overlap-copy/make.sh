#!/bin/sh
# power.plist.1 is a copy of power.plist: read as a continuation, every
# sample was counted twice and coverage still said "ok".
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
cp "$r/power.plist" "$r/power.plist.1"
