#!/bin/sh
. "$HOSTILE/check-lib.sh"
page=runs/2023/run/index.html
present "the session announces 3 rounds but holds measurements of 2: it stopped before the end" "$page"
present "the session ended with an error: killed" "$page"
jcheck "results.json: both warnings kept" '@{$r->{warnings}} == 2'
