#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "every idle window at the package's 30 W" \
	'@{$r->{idle_windows}} == 5 && !grep { abs($_->{mean_watts} - 30) > 1e-6 } @{$r->{idle_windows}}'
jcheck "the warning is the run's, naming the domain" \
	'grep { $_->{file} eq "perf-stat.csv" && $_->{message} =~ /^domain .dram. has no value in any sample/ } @{$r->{warnings}}'
present 'has no value in any sample: left out of the energy' runs/2023/run/index.html
