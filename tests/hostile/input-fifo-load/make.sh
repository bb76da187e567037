#!/bin/sh
# A bombardier file is a FIFO with no writer (erg hung here): refused at
# once, located at the timeline line that names it.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/bombardier/r1-s2-beta-a.json" && mkfifo "$r/bombardier/r1-s2-beta-a.json"
