#!/bin/sh
# The idleWindow record of idle-01 (the cooldown before r1-s2-beta) lost.
# r1-s2-beta's idle floor silently became idle-00's; now an error.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'print unless /"event":"idleWindow","id":"idle-01"/' "$r/timeline.jsonl"
