#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "round and slot from the routeComplete" \
	'$r->{measurements}[0]{round} == 1 && $r->{measurements}[0]{slot} == 1'
jcheck "its load files read" \
	'$r->{measurements}[0]{routes}[0]{load}{file} eq "bombardier/r1-s1-alpha-a.json" &&
	 $r->{measurements}[0]{routes}[1]{load}{latency_mean_us} == 250.5'
