#!/bin/sh
# A perf stat log whose every interval counted 0 J of energy-pkg, as a
# counter nobody could read gives (RAPL in a virtual machine, a paranoid
# kernel): it made every window 0 J and the headline 0 mJ/req, ranked
# best, with every check passing.  Refused at the file.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
perl -0 -i -pe 's/\}\s*\z/, "erg": {"powerStartMs": 1699999999000}}\n/' "$r/meta.json"
{
	printf '# started on Tue Nov 14 22:13:19 2023\n\n'
	s=1
	while [ $s -le 109 ]; do
		printf '%d.000000000,0.00,Joules,power/energy-pkg/,1000000000,100.00,,\n' $s
		s=$((s + 1))
	done
} > "$r/perf-stat.csv"
