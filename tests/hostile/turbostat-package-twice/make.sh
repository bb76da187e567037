#!/bin/sh
# No summary row (two packages, per-package rows only): package 0's
# PkgWatt on two rows of one interval.  Summed, the package would count
# twice; taken once, which row is a guess: refused at the second row.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
{
	printf 'turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n'
	printf 'Measurement interval: 1.000 seconds\n'
	printf 'Time_Of_Day_Seconds\tPackage\tCore\tCPU\tPkgWatt\n'
	printf '1700000000.000000\t0\t0\t0\t10.00\n'
	printf '1700000000.000100\t1\t0\t1\t10.00\n'
	printf '1700000000.000200\t0\t1\t2\t10.00\n'
} > "$r/turbostat.txt"
