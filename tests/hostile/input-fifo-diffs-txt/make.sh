#!/bin/sh
# The archive's diffs.txt (pairs of runs to compare) is a FIFO with no
# writer: refused at once as not a regular file.
. "$HOSTILE/lib.sh"
small "$1/2023/run"
mkfifo "$1/diffs.txt"
