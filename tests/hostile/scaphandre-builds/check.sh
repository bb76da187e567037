#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "scaphandre: 40 W x 5 s = 200 J in route a of r1-s1-alpha" \
	'abs($r->{measurements}[0]{routes}[0]{energy_j} - 200) < 1e-6'
jcheck "alpha's headline 20 mJ/req" 'abs($r->{targets}[0]{headline}{mj_per_req}{mean} - 20) < 1e-9'
jcheck "alpha's headline by domain: host 20" \
	'abs($r->{targets}[0]{headline}{domains_mj_per_req}{host} - 20) < 1e-9'
jcheck "energy source 'scaphandre'" '$r->{energy_source} eq "scaphandre"'
present "scaphandre (scaphandre.json): Scaphandre&#39;s host power" runs/2023/run/index.html
