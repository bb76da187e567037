#!/bin/sh
. "$HOSTILE/check-lib.sh"
present 'has no measurementComplete: the session stopped during it' runs/2023/run/index.html
jcheck "its end is not known, its windows are" \
	'!defined $r->{measurements}[3]{end_ms} && $r->{measurements}[3]{routes}[1]{energy_j} == 66'
