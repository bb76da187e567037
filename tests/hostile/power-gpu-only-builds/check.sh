#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "gpu.gpu_energy: 10 W x 5 s = 50 J in route a of r1-s1-alpha" \
	'abs($r->{measurements}[0]{routes}[0]{energy_j} - 50) < 1e-9'
jcheck "alpha's headline 7.21875 mJ/req" \
	'abs($r->{targets}[0]{headline}{mj_per_req}{mean} - 7.21875) < 1e-9'
jcheck "alpha's headline by domain: gpu 7.21875" \
	'abs($r->{targets}[0]{headline}{domains_mj_per_req}{gpu} - 7.21875) < 1e-9'
present "GPU energy alone (no cpu_power sampler)" runs/2023/run/index.html
