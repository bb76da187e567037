#!/bin/sh
# A turbostat log at 30 W with the rows of S + 34 to S + 38 missing (the
# logger stalled, in an idle window): the row of S + 39 covers six
# seconds, a gap over 5x the median.  The coverage check put that gap at
# the six seconds before it (S + 27 to S + 33), where the rows are; it is
# S + 33 to S + 39.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	printf 'turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n'
	printf 'Measurement interval: 1.000 seconds\n'
	s=-1
	while [ $s -le 107 ]; do
		if [ $s -lt 34 ] || [ $s -gt 38 ]; then
			printf 'Time_Of_Day_Seconds\tPkgWatt\n'
			printf '%d.000000\t30.00\n' $((1700000000 + s))
		fi
		s=$((s + 1))
	done
} > "$r/turbostat.txt"
