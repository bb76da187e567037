#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "results.json: r1-s1-alpha a read as wrk" \
	'$r->{measurements}[0]{routes}[0]{load}{tool} eq "wrk"'
jcheck "results.json: the timeline's exact byte count is published" \
	'$r->{measurements}[0]{routes}[0]{bytes_read} == 996147'
