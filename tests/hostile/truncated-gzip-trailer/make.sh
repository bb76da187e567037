#!/bin/sh
# power.plist.gz without the last 4 bytes of its trailer (ISIZE): every byte
# of data inflates, but the stream is not complete.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
gzip -9n "$r/power.plist"
size=$(wc -c < "$r/power.plist.gz")
head -c $((size - 4)) "$r/power.plist.gz" > "$r/cut" && mv "$r/cut" "$r/power.plist.gz"
