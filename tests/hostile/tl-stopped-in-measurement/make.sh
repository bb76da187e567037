#!/bin/sh
# The session ended with an error during its last measurement, after its
# routes: no measurementComplete.  It builds; the page says the end of that
# measurement is not known.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -ne 'print unless /"event":"measurementComplete","id":"r2-s2-alpha"/' "$r/timeline.jsonl"
perl -i -pe 's/"ok":true/"ok":false,"error":"killed"/' "$r/timeline.jsonl"
