#!/bin/sh
. "$HOSTILE/check-lib.sh"
present '"file": "power.plistX"' runs/2023/run/results.json
present 'power.plistX' runs/2023/run/index.html
jcheck "power.plistX in the raw-files table" \
	'grep { $_->{name} eq "power.plistX" && $_->{bytes} == 6 } @{$r->{files}}'
