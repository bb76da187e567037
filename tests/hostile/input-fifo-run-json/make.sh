#!/bin/sh
# A summary run's run.json is a FIFO: the run vanished from the site; now
# it is a run, and run.json is refused at once as not a regular file.
r=$1/2023/summary
mkdir -p "$r/tables"
printf 'target,rps\na,1\n' > "$r/tables/t.csv"
mkfifo "$r/run.json"
