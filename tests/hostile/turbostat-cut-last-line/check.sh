#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "the cut row is no sample: every idle window's power is 30 W over its covered part" \
	'!grep { abs($_->{mean_watts} - 30 * $_->{coverage}) > 1e-9 } @{$r->{idle_windows}}'
jcheck "the warning is the run's, at the cut line" \
	'grep { $_->{file} eq "turbostat.txt" && $_->{line} == 210 && $_->{message} =~ /^the last line has no end/ } @{$r->{warnings}}'
present 'the last line has no end (no newline: the logger was stopped while writing it)' runs/2023/run/index.html
