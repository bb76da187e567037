#!/bin/sh
# The page and results.json of a run whose window r1-s1-alpha/a got no 2xx.
. "$HOSTILE/check-lib.sh"
page=runs/2023/run/index.html
present "10000 of 10000 requests got no 2xx response" "$page"
present "errors or non-2xx responses in 1 load window" "$page"
present "answered 2xx or not" "$page"
present "Energy per 2xx response" "$page"
jcheck "results.json: non_2xx 10000, 0 2xx, 0 errors in r1-s1-alpha a" \
	'my $w = $r->{measurements}[0]{routes}[0];
	 $w->{non_2xx} == 10000 && $w->{responses_2xx} == 0 && $w->{errors} == 0'
jcheck "results.json: no figure per 2xx for a window without one" \
	'!defined $r->{measurements}[0]{routes}[0]{mj_per_2xx}'
jcheck "results.json: the responses check fails" \
	'$r->{validation}{responses}{status} eq "fail"'
jcheck "results.json: the headline names its denominator" \
	'$r->{targets}[0]{headline}{denominator} eq "requests"'
# By hand: alpha r1 spends 50 J + 60 J on 10000 + 6000 requests, of which
# only route b's 6000 were 2xx: 110000 mJ / 6000 = 18.3333 mJ per 2xx;
# r2 as ever 121000 / 16000 = 7.5625.  Per request the figures do not move.
jcheck "alpha per 2xx response: (110000/6000 + 7.5625) / 2 mJ" \
	'abs($r->{targets}[0]{headline}{mj_per_2xx}{mean} - (110000/6000 + 7.5625) / 2) < 1e-9'
jcheck "alpha per request unchanged: (6.875 + 7.5625) / 2 mJ" \
	'abs($r->{targets}[0]{headline}{mj_per_req}{mean} - 7.21875) < 1e-12'
