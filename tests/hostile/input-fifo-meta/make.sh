#!/bin/sh
# meta.json is a FIFO: the run vanished from the site; now refused at
# once as not a regular file.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/meta.json" && mkfifo "$r/meta.json"
