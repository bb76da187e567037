#!/bin/sh
# meta.json with "roomTempC": "21" (a string), once dropped from the page;
# now an error at the member's own line.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's/"roomTempC": 21/"roomTempC": "21"/' "$r/meta.json"
