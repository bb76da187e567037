#!/bin/sh
# The archive's targets.txt (which names are one target) is a FIFO with
# no writer: refused at once as not a regular file.
. "$HOSTILE/lib.sh"
small "$1/2023/run"
mkfifo "$1/targets.txt"
