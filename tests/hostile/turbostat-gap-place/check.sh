#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "one gap, where the rows are missing: S + 33 s to S + 39 s" \
	'my $g = $r->{validation}{coverage}{gaps}; @$g == 1 &&
	 $g->[0]{start_ms} == 1700000033000 && $g->[0]{end_ms} == 1700000039000'
