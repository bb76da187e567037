#!/bin/sh
# meta.json with "title" given twice: two values for one field, of which
# erg kept the last (as browsers do).  Now an error at the second one.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
line_edit "$r/meta.json" 3 's/^/ "title": "Another title",\n/'
