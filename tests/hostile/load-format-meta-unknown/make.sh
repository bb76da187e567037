#!/bin/sh
# meta.json "erg": {"loadFormat": "ohaa"}: no such format.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's/^ "roomTempC": 21,/ "roomTempC": 21,\n "erg": {"loadFormat": "ohaa"},/' "$r/meta.json"
