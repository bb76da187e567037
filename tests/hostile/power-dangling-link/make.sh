#!/bin/sh
# power.plist is a symbolic link to a file that does not exist.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
ln -s power-old.plist "$r/power.plist"
