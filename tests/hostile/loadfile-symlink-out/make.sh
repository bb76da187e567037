#!/bin/sh
# loadFile names a file inside the run that is a symbolic link to a file
# elsewhere in the archive (relative link).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
cp "$r/bombardier/r2-s2-alpha-a.json" "$1/secret.json"
ln -s ../../../secret.json "$r/bombardier/copy.json"
line_edit "$r/timeline.jsonl" 19 's/}$/,"loadFile":"bombardier\/copy.json"}/'
