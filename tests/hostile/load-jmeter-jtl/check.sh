#!/bin/sh
. "$HOSTILE/check-lib.sh"
# By hand: nearest rank over 100 copies of 0..99 ms: p50 rank 5000 -> 49,
# p75 -> 74, p90 -> 89, p95 -> 94, p99 -> 98, p99.9 rank 9990 -> 99;
# mean 49.5 ms; max 99 ms; 8 threads.
jcheck "results.json: route a's load is jmeter with 8 threads" \
	'my $l = $r->{measurements}[0]{routes}[0]{load};
	 $l->{tool} eq "jmeter" && $l->{connections} == 8'
jcheck "results.json: JTL percentiles by nearest rank" \
	'my $p = $r->{measurements}[0]{routes}[0]{load}{latency_pct_us};
	 $p->{p50} == 49000 && $p->{p75} == 74000 && $p->{p90} == 89000 &&
	 $p->{p95} == 94000 && $p->{p99} == 98000 && $p->{"p99.9"} == 99000'
jcheck "results.json: JTL mean 49.5 ms, max 99 ms" \
	'my $l = $r->{measurements}[0]{routes}[0]{load};
	 abs($l->{latency_mean_us} - 49500) < 1e-6 && $l->{latency_max_us} == 99000'
# span: first start 1700000021000, last sample i = 9999 starts at
# +4999 ms and takes 99 ms: 5.098 s
jcheck "results.json: JTL time taken 5.098 s" \
	'abs($r->{measurements}[0]{routes}[0]{load}{time_taken_s} - 5.098) < 1e-9'
