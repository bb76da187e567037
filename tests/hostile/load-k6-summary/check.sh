#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "results.json: route a's load is k6, 50 VUs" \
	'my $l = $r->{measurements}[0]{routes}[0]{load};
	 $l->{tool} eq "k6" && $l->{connections} == 50'
# "med": 2, "p(95)": 5 ms; "avg": 2.5
jcheck "results.json: k6 p50 2000 us, p95 5000 us, mean 2500 us" \
	'my $p = $r->{measurements}[0]{routes}[0]{load};
	 $p->{latency_pct_us}{p50} == 2000 && $p->{latency_pct_us}{p95} == 5000 &&
	 $p->{latency_mean_us} == 2500'
jcheck "results.json: p75, p99, p99.9 and the SD not reported (null), not 0" \
	'my $p = $r->{measurements}[0]{routes}[0]{load};
	 !defined $p->{latency_pct_us}{p75} && !defined $p->{latency_pct_us}{p99} &&
	 !defined $p->{latency_pct_us}{"p99.9"} && !defined $p->{latency_sd_us}'
jcheck "results.json: 10000 requests, all answered 2xx/3xx" \
	'my $w = $r->{measurements}[0]{routes}[0];
	 $w->{requests} == 10000 && $w->{responses_2xx} == 10000'
