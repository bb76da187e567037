#!/bin/sh
. "$HOSTILE/check-lib.sh"
present '"file": "power.plist.bak"' runs/2023/run/results.json
present 'not read: the power stream is power.plist, power.plist.1, ... (each may end in .gz)' runs/2023/run/results.json
present 'power.plist.bak' runs/2023/run/index.html
present 'not read: the power stream is power.plist' runs/2023/run/index.html
jcheck "power.plist.bak in the raw-files table, with power.plist's digest" \
	'my %f = map { $_->{name} => $_ } @{$r->{files}};
	 $f{"power.plist.bak"} && $f{"power.plist.bak"}{sha256} eq $f{"power.plist"}{sha256} &&
	 $f{"power.plist.bak"}{bytes} == $f{"power.plist"}{bytes}'
