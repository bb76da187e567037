#!/bin/sh
# A routeComplete whose loadFile is /etc/passwd.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/timeline.jsonl" 10 's/}$/,"loadFile":"\/etc\/passwd"}/'
