#!/bin/sh
# A session whose timeline.jsonl was not copied: the run was not
# recognised and vanished.  Now an error naming the directory.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/timeline.jsonl"
