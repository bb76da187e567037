#!/bin/sh
# timeline.jsonl is a FIFO: the run was not even recognised as one (it
# vanished from the site); now it is a run, and its timeline is refused
# at once as not a regular file.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/timeline.jsonl" && mkfifo "$r/timeline.jsonl"
