#!/bin/sh
# A JTL whose 3rd sample says success "maybe": refused at its line, not
# counted as either verdict.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"a.jtl"/'
printf 'timeStamp,elapsed,label,responseCode,success,bytes\n1,2,a,200,true,10\n1,2,a,200,true,10\n1,2,a,200,maybe,10\n' > "$r/a.jtl"
