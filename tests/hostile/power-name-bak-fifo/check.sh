#!/bin/sh
. "$HOSTILE/check-lib.sh"
jcheck "power.plist.bak in the raw-files table, without size or digest" \
	'grep { $_->{name} eq "power.plist.bak" && !defined $_->{bytes} &&
		!defined $_->{sha256} } @{$r->{files}}'
