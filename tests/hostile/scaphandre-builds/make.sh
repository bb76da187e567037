#!/bin/sh
# Scaphandre's JSON exporter (1.0.1 framing: '[', reports separated by
# ',', ']') in place of the plist, written here in the documented report
# shape: a report every second from S - 1 to S + 107, each one's host
# power the mean over the second before it: 40 W (40000000 uW) over the
# measurements (reports at S + 22 to 30, + 43 to 51, + 64 to 72, + 85 to
# 93), 30 W otherwise.  Route a of r1-s1-alpha (5 s) has 40 x 5 = 200 J;
# alpha's headline is 40 W x 8 s x 1000 / 16000 requests = 20 mJ/req,
# all of it host (check.sh).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	printf '['
	s=-1
	while [ $s -le 107 ]; do
		w=30000000.0
		for m in 21 42 63 84; do
			[ $s -gt $m ] && [ $s -le $((m + 9)) ] && w=40000000.0
		done
		[ $s -gt -1 ] && printf ','
		t=$((1700000000 + s))
		printf '{"host":{"consumption":%s,"timestamp":%d.0,"components":{"disks":[]}},' $w $t
		printf '"consumers":[{"exe":"/usr/bin/bun","cmdline":"bun run {server}","pid":4242,'
		printf '"resources_usage":null,"consumption":1000000.0,"timestamp":%d.0,"container":null}],' $t
		printf '"sockets":[{"id":0,"consumption":%s,"domains":[],"timestamp":%d.0}]}\n' $w $t
		s=$((s + 1))
	done
	printf ']\n'
} > "$r/scaphandre.json"
