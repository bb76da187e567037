#!/bin/sh
# timeline.jsonl is a symbolic link to a file that does not exist: the
# run was not recognised and vanished.  Now an error naming it.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/timeline.jsonl" && ln -s timeline-2023.jsonl "$r/timeline.jsonl"
