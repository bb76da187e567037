#!/bin/sh
# One power sample of 70 MB (a giant <string> and no NUL): more than the
# 64 MiB erg holds for one document, refused at its offset; erg never
# holds more than that, whatever the stream.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n<key>hw_model</key><string>'
	head -c 70000000 /dev/zero | tr '\0' x
	printf '</string>\n</dict>\n</plist>\n'
	cat "$r/power.plist"
} > "$r/big" && mv "$r/big" "$r/power.plist"
