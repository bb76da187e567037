#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "results.json: the load file was read as wrk2" \
	'$r->{measurements}[0]{routes}[0]{load}{tool} eq "wrk2"'
jcheck "results.json: the other windows were detected (bombardier)" \
	'$r->{measurements}[0]{routes}[1]{load}{tool} eq "bombardier"'
