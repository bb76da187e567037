#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "two sources summed: processor 50 J + gpu0 150 J in route a of r1-s1-alpha" \
	'$r->{measurements}[0]{routes}[0]{energy_j} == 200'
jcheck "alpha's headline 22.21875 mJ/req" '$r->{targets}[0]{headline}{mj_per_req}{mean} == 22.21875'
jcheck "alpha's headline by domain: processor 7.21875, gpu0 15" \
	'$r->{targets}[0]{headline}{domains_mj_per_req}{processor} == 7.21875 && $r->{targets}[0]{headline}{domains_mj_per_req}{gpu0} == 15'
jcheck "energy source 'powermetrics + nvidia-smi'" '$r->{energy_source} eq "powermetrics + nvidia-smi"'
present 'Headline by domain' runs/2023/run/index.html
present 'nvidia-smi (nvidia-smi.csv): nvidia-smi power.draw' runs/2023/run/index.html
