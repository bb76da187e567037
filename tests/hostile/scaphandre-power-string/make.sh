#!/bin/sh
# A Scaphandre report whose host power is a string: refused at its line,
# never read as 0 or as the number inside it.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	printf '[{"host":{"consumption":30000000.0,"timestamp":1700000000.0,"components":{}},"consumers":[],"sockets":[]},\n'
	printf '{"host":{"consumption":"30000000.0","timestamp":1700000001.0,"components":{}},"consumers":[],"sockets":[]}]\n'
} > "$r/scaphandre.json"
