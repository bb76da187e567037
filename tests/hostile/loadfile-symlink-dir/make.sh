#!/bin/sh
# loadFile goes through a symbolic link to a directory outside the run.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
mkdir -p "$1/elsewhere" && cp "$r/bombardier/"*.json "$1/elsewhere/"
ln -s ../../elsewhere "$r/linked"
line_edit "$r/timeline.jsonl" 15 's/}$/,"loadFile":"linked\/r2-s1-beta-b.json"}/'
