#!/bin/sh
# perf stat -e power/energy-pkg/,power/energy-ram/ on a processor whose
# DRAM domain perf cannot count: '<not supported>' on every energy-ram
# line, 30 J a second of package.  The unsupported domain made every
# interval's sum "no value" and the file "no energy"; it is left out of
# the sum, with a warning on the page, and the energy is the package's.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
perl -0 -i -pe 's/\}\s*\z/, "erg": {"powerStartMs": 1699999999000}}\n/' "$r/meta.json"
{
	printf '# started on Tue Nov 14 22:13:19 2023\n\n'
	s=1
	while [ $s -le 109 ]; do
		printf '%d.000000000,30.00,Joules,power/energy-pkg/,1000000000,100.00,,\n' $s
		printf '%d.000000000,<not supported>,Joules,power/energy-ram/,0,100.00,,\n' $s
		s=$((s + 1))
	done
} > "$r/perf-stat.csv"
