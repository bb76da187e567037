#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "results.json: route a's failed is k6's count, 37" \
	'my $w = $r->{measurements}[0]{routes}[0];
	 $w->{failed} == 37 && $w->{load}{tool} eq "k6"'
jcheck "results.json: route b (no load file) has failed null, not 0" \
	'my $w = $r->{measurements}[0]{routes}[1];
	 !defined $w->{failed}'
present '>Failed (tool)' runs/2023/run/index.html
