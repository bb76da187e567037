#!/bin/sh
# A valid gzip member, then a second member inflating to 50 MB of zeros;
# --max-inflated 1000000 (args) stops it at the cap, quickly.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
gzip -9n "$r/power.plist"
head -c 50000000 /dev/zero | gzip -9n >> "$r/power.plist.gz"
