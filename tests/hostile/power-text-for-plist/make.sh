#!/bin/sh
# power.plist holds powermetrics' default text output (no -f plist):
# an error at the file that says so, not a plist parse error.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
printf 'Machine model: MacBookPro18,1\nOS version: 22G91\n\n*** Sampled system activity (Wed Jan 24 18:34:49 2024 -0500) (111.75ms elapsed) ***\n' > "$r/power.plist"
