#!/bin/sh
# The dump says the RAPL counter wraps in 234 s at 280 W (the real Genoa
# line); the third summary row comes 300 s after the second, so a wrap
# may hide in that interval: refused at its row, its energy never read.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	printf 'turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n'
	printf 'Measurement interval: 5.000 seconds\n'
	printf 'RAPL: 234 sec. Joule Counter Range, at 280 Watts\n'
	for t in 1700000000 1700000005 1700000305; do
		printf 'Time_Of_Day_Seconds\tCore\tCPU\tPkgWatt\n%d.000000\t-\t-\t100.00\n' $t
	done
} > "$r/turbostat.txt"
