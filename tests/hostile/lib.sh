# lib.sh - helpers for tests/hostile/<case>/make.sh (sourced by them).
# Environment from run.sh: MKSMALL (tests/tools/mksmall), HOSTILE (this
# directory).  Edits are done with perl (Debian's perl-base is always
# there), on files mksmall wrote, so every case is "the small session,
# with one thing wrong".

# small DIR [VARIANT]: the small session of tests/tools/mksmall.c in DIR.
small() {
	mkdir -p "$(dirname "$1")"
	"$MKSMALL" "$1" ${2:+"$2"} >/dev/null
}

# sample_edit FILE N PERL: run a perl substitution on the N-th
# NUL-terminated document (1-based) of a power stream.
sample_edit() {
	perl -0 -i -pe "if (\$. == $2) { $3 }" "$1"
}

# line_edit FILE N PERL: the same on line N of a text file (timeline).
line_edit() {
	perl -i -pe "if (\$. == $2) { $3 }" "$1"
}

# all_edit FILE PERL: the same on every line.
all_edit() {
	perl -i -pe "$2" "$1"
}

# small_watts s: the small session's package power in the second before
# S + s (S = 1700000000 = 2023-11-14T22:13:20Z, its sessionStart): 40.00
# in its four measurements (S + 22 to S + 30, + 43 to 51, + 64 to 72,
# + 85 to 93), 30.00 otherwise.
small_watts() {
	for m in 21 42 63 84; do
		if [ "$1" -gt $m ] && [ "$1" -le $((m + 9)) ]; then
			echo 40.00
			return
		fi
	done
	echo 30.00
}

# turbostat_log FIRST LAST [WATTS]: a turbostat log on stdout (its
# version and a 1 s interval, then a Time_Of_Day_Seconds / PkgWatt row
# under its own header line for every second from S + FIRST to S + LAST,
# as turbostat --show prints them); PkgWatt is WATTS, or small_watts.
# The seconds in $SKIP (a list) are left out: a logger that stalled.
turbostat_log() {
	printf 'turbostat version 2024.12.03 - Len Brown <lenb@kernel.org>\n'
	printf 'Measurement interval: 1.000 seconds\n'
	s=$1
	while [ $s -le "$2" ]; do
		case " ${SKIP:-} " in
		*" $s "*) ;;
		*)	printf 'Time_Of_Day_Seconds\tPkgWatt\n'
			printf '%d.000000\t%s\n' $((1700000000 + s)) "${3:-$(small_watts $s)}" ;;
		esac
		s=$((s + 1))
	done
}

# perf_session RUN PKG [RAM]: the small session in RUN measured by `perf
# stat -x, -I 1000` instead of powermetrics: perf-stat.csv started at
# S - 1 (meta.json's erg.powerStartMs says so), a row of energy-pkg PKG
# Joules at each second from 1 to 109 s and, given RAM, one of energy-ram
# after it (RAM as perf prints it: a number or <not supported>).
perf_session() {
	rm "$1/power.plist"
	perl -0 -i -pe 's/\}\s*\z/, "erg": {"powerStartMs": 1699999999000}}\n/' "$1/meta.json"
	{
		printf '# started on Tue Nov 14 22:13:19 2023\n\n'
		s=1
		while [ $s -le 109 ]; do
			printf '%d.000000000,%s,Joules,power/energy-pkg/,1000000000,100.00,,\n' $s "$2"
			[ -z "${3:-}" ] ||
				printf '%d.000000000,%s,Joules,power/energy-ram/,0,100.00,,\n' $s "$3"
			s=$((s + 1))
		done
	} > "$1/perf-stat.csv"
}

# wrk_report LENGTH REQUESTS SPAN READ TRANSFER: a wrk 4 report of route
# a (2 threads, 50 connections) on stdout: "Running LENGTH test", then
# "REQUESTS requests in SPAN, READ read" and "Transfer/sec: TRANSFER".
wrk_report() {
	printf 'Running %s test @ http://127.0.0.1:3000/a\n' "$1"
	printf '  2 threads and 50 connections\n'
	printf '  Thread Stats   Avg      Stdev     Max   +/- Stdev\n'
	printf '    Latency   250.50us   20.00us 900.00us   75.00%%\n'
	printf '    Req/Sec     1.00k    10.00     1.05k    80.00%%\n'
	printf '  %s requests in %s, %s read\n' "$2" "$3" "$4"
	printf 'Requests/sec:   2000.00\n'
	printf 'Transfer/sec:    %s\n' "$5"
}

# trials_power RUN: a trials run in RUN (run.json) with power.csv at 40 W
# a second from T0 = 1733170000000 to T0 + 60 s; the caller writes
# RUN/trials/.
trials_power() {
	mkdir -p "$1/trials"
	printf '{"title": "trials with power", "date": "2026-12-03", "machine": {"id": "m"}}\n' \
		> "$1/run.json"
	{
		echo 'time,cpu_W'
		echo '1733170000000,'
		i=1
		while [ $i -le 60 ]; do
			echo "$((1733170000000 + i * 1000)),40"
			i=$((i + 1))
		done
	} > "$1/power.csv"
}
