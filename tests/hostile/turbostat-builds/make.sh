#!/bin/sh
# turbostat in place of the plist: the Broadwell sample's layout (dump,
# header repeated per interval, summary row then per-CPU rows, short
# ones too), Time_Of_Day_Seconds every second from S - 1 to S + 107:
# 40 W of package over the measurements (S + 21 to S + 30, + 42 to 51,
# + 63 to 72, + 84 to 93), 30 W otherwise, and 5 W of cores (reported
# only).  Route a of r1-s1-alpha (5 s) has 40 x 5 = 200 J; alpha's
# headline is 40 W x 8 s x 1000 / 16000 requests = 20 mJ/req, all of it
# package (check.sh).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	printf 'turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n'
	printf 'Measurement interval: 1.000 seconds\n'
	printf 'RAPL: 4033 sec. Joule Counter Range, at 65 Watts\n'
	# 1700000000 s = 2023-11-14T22:13:20Z, the session's S; the row at
	# S + s covers the second before it
	s=-1
	while [ $s -le 107 ]; do
		w=$(small_watts $s)
		printf 'Time_Of_Day_Seconds\tCore\tCPU\tBusy%%\tPkgWatt\tCorWatt\n'
		printf '%d.000000\t-\t-\t0.79\t%s\t5.00\n' $((1700000000 + s)) $w
		printf '%d.000000\t0\t0\t1.20\t%s\t5.00\n' $((1700000000 + s)) $w
		printf '%d.000000\t0\t4\t0.06\n' $((1700000000 + s))
		s=$((s + 1))
	done
} > "$r/turbostat.txt"
