#!/bin/sh
# power.plist is a symbolic link to a stream outside the run directory.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
mv "$r/power.plist" "$1/elsewhere.plist"
ln -s ../../elsewhere.plist "$r/power.plist"
