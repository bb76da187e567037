#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "powermetrics text: 40 W x 5 s = 200 J in route a of r1-s1-alpha" \
	'abs($r->{measurements}[0]{routes}[0]{energy_j} - 200) < 1e-6'
jcheck "alpha's headline 20 mJ/req" 'abs($r->{targets}[0]{headline}{mj_per_req}{mean} - 20) < 1e-9'
jcheck "alpha's headline by domain: combined 20" \
	'abs($r->{targets}[0]{headline}{domains_mj_per_req}{combined} - 20) < 1e-9'
jcheck "energy source 'powermetrics text'" '$r->{energy_source} eq "powermetrics text"'
