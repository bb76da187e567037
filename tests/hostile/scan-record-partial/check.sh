#!/bin/sh
# The site holds the good run only.
. "$HOSTILE/check-lib.sh"
[ -f "$OUT/runs/2023/run/index.html" ] && echo "ok - the good run is built" ||
	echo "not ok - the good run is missing"
absent "erg-record-next" "*"
