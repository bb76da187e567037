#!/bin/sh
# The run was built; nothing of the linked folder is in the site.
. "$HOSTILE/check-lib.sh"
[ -f "$OUT/runs/2023/run/index.html" ] && echo "ok - the run is built" ||
	echo "not ok - the run is missing"
[ ! -e "$OUT/runs/linked" ] && echo "ok - the link is not followed" ||
	echo "not ok - the link was followed"
