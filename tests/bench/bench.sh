#!/bin/sh
# tests/bench/bench.sh - the performance benchmark (make bench; not part of
# make test).  In a temporary folder it generates the full-fidelity
# reference session (tests/tools/rebuild --full-fidelity: ~9,000 samples of
# ~26 KB, ~220 MB), plain and gzipped, a copy whose power file is 4 times
# as long, a 100-run and a 1,000-run archive of small sessions
# (tests/tools/mksmall), then measures, alternating, REPS times each:
#
#   cat       cat power.plist > /dev/null
#   sha256    openssl dgst -sha256 power.plist (if openssl is installed):
#             the SHA-256 erg shows in the raw-files table, alone; with
#             SHA-NI it is the floor of the plain build on this machine
#   zcat      zcat power.plist.gz > /dev/null
#   plain     erg build of the plain session (a full build: new OUT)
#   nodigest  the same with --no-digest: no SHA-256 in the raw-files table
#   gz        erg build of the gzipped session
#   noop100   erg build of the 100-run archive into its own, current site
#   full1000  erg build of the 1,000-run archive (a full build)
#
# and once: x4, erg build of the session with the 4x power file (peak
# memory must not grow with the file).  Wall time from the shell clock
# (ns), peak RSS from /usr/bin/time -v.  Prints medians with min-max, the
# ratios against the targets, and writes them to tests/bench/last.txt.
#
# Environment: BUILD (build), SHARED (../shared), REPS (5), JOBS (erg -j;
# default: erg's own, one per core), BENCH_TMP (parent of the temporary
# folder, default TMPDIR or /tmp), BENCH_OUT (tests/bench/last.txt).
set -eu
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
REPS=${REPS:-5}
OUTFILE=${BENCH_OUT:-tests/bench/last.txt}
DATASET=$SHARED/reference/energy-benchmark-m5.json
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset SOURCE_DATE_EPOCH || true
ERG=$(pwd)/$BUILD/erg
REBUILD=$BUILD/tools/rebuild
MKSMALL=$BUILD/tools/mksmall
JOBSOPT=
[ -n "${JOBS:-}" ] && JOBSOPT="-j $JOBS"

for f in "$ERG" "$REBUILD" "$MKSMALL"; do
	[ -x "$f" ] || { echo "bench: $f is missing (make all)" >&2; exit 1; }
done
[ -f "$DATASET" ] || { echo "bench: $DATASET is missing (SHARED=...)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

tmp=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/erg-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
say() { printf '%s\n' "$*" >&2; }

say "bench: generating the sessions in $tmp"
# One binary and one template set for the whole run, whatever happens to
# the build tree meanwhile (a rebuilt erg or edited template would make
# the "no-op" rebuild a full one).
cp "$ERG" "$tmp/erg"
cp -R templates "$tmp/templates"
ERG=$tmp/erg
ERG_TEMPLATES=$tmp/templates
export ERG_TEMPLATES
"$REBUILD" --plain --full-fidelity "$DATASET" "$tmp/plain/m5/run"
"$REBUILD" --full-fidelity "$DATASET" "$tmp/gz/m5/run"
plist=$tmp/plain/m5/run/power.plist
gz=$tmp/gz/m5/run/power.plist.gz
mkdir -p "$tmp/x4/m5"
cp -R "$tmp/plain/m5/run" "$tmp/x4/m5/run"
# Four copies in a row: timestamps repeat (a few warnings, a useless time
# fit), but every byte is parsed, which is what the memory test needs.
cat "$plist" "$plist" "$plist" "$plist" > "$tmp/x4/m5/run/power.plist"
"$MKSMALL" "$tmp/small" > /dev/null
for i in $(seq 1 1000); do
	d=$(printf 'r%04d' "$i")
	[ "$i" -le 100 ] && { mkdir -p "$tmp/a100/g$((i % 10))"; cp -R "$tmp/small" "$tmp/a100/g$((i % 10))/$d"; }
	mkdir -p "$tmp/a1000/g$((i % 20))"
	cp -R "$tmp/small" "$tmp/a1000/g$((i % 20))/$d"
done
# shellcheck disable=SC2086
"$ERG" build --quiet $JOBSOPT --archive "$tmp/a100" --out "$tmp/site100"
sync
# Warm the page cache for every reader alike.
cat "$plist" "$gz" > /dev/null

OPENSSL=$(command -v openssl || true)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
now_ns() { date +%s%N; }
# run NAME CMD...: one timed run; appends "wall_s rss_kb cpu_s" to $tmp/NAME.
run() {
	name=$1
	shift
	t0=$(now_ns)
	/usr/bin/time -v -o "$tmp/time.out" "$@" > /dev/null 2> "$tmp/err.out" || {
		say "bench: $name failed:"
		sed -n '1,20p' "$tmp/err.out" "$tmp/time.out" >&2
		exit 1
	}
	t1=$(now_ns)
	awk -v w="$(( t1 - t0 ))" '
		/Maximum resident set size/ { rss = $NF }
		/User time \(seconds\)/ { u = $NF }
		/System time \(seconds\)/ { s = $NF }
		END { printf "%.6f %d %.2f\n", w / 1e9, rss, u + s }' "$tmp/time.out" >> "$tmp/res/$name"
}

mkdir -p "$tmp/res" "$tmp/out"
say "bench: $REPS repetitions"
for rep in $(seq 1 "$REPS"); do
	say "bench: repetition $rep"
	run cat cat "$plist"
	if [ -n "$OPENSSL" ]; then run sha256 "$OPENSSL" dgst -sha256 "$plist"; fi
	run zcat zcat "$gz"
	# Full builds go to a new OUT each time, and nothing is deleted while
	# measuring: ext4 is slow to allocate inodes right after many were
	# freed, which would charge rm -rf to erg.
	# shellcheck disable=SC2086
	run plain "$ERG" build --quiet $JOBSOPT --archive "$tmp/plain" --out "$tmp/out/plain$rep"
	# shellcheck disable=SC2086
	run nodigest "$ERG" build --quiet --no-digest $JOBSOPT --archive "$tmp/plain" --out "$tmp/out/nodigest$rep"
	# shellcheck disable=SC2086
	run gz "$ERG" build --quiet $JOBSOPT --archive "$tmp/gz" --out "$tmp/out/gz$rep"
	# shellcheck disable=SC2086
	run noop100 "$ERG" build --quiet $JOBSOPT --archive "$tmp/a100" --out "$tmp/site100"
	# shellcheck disable=SC2086
	run full1000 "$ERG" build --quiet $JOBSOPT --archive "$tmp/a1000" --out "$tmp/out/a1000-$rep"
done
say "bench: the 4x session (once)"
# shellcheck disable=SC2086
run x4 "$ERG" build --quiet $JOBSOPT --archive "$tmp/x4" --out "$tmp/out/x4"

# summ NAME FIELD -> "median min max" of column FIELD
summ() {
	sort -g -k "$2,$2" "$tmp/res/$1" | awk -v f="$2" '
		{ v[NR] = $f }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%s %s %s\n", m, v[1], v[NR] }'
}
med() { summ "$1" "$2" | cut -d' ' -f1; }
max() { summ "$1" "$2" | cut -d' ' -f3; }

size_plain=$(wc -c < "$plist" | tr -d ' ')
size_gz=$(wc -c < "$gz" | tr -d ' ')
size_x4=$(wc -c < "$tmp/x4/m5/run/power.plist" | tr -d ' ')
samples=$(tr -cd '\000' < "$plist" | wc -c | tr -d ' ')
{
	echo "erg benchmark, $(date -u +%Y-%m-%d) - $(uname -sm), $(nproc) cores," \
		"$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)," \
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "load average at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg)" \
		"(anything else running makes wall times noisy; CPU s is the process's own)"
	echo "erg -j: ${JOBS:-default ($(nproc))}; $REPS repetitions, alternating; median [min - max]"
	echo "CPU SHA extensions (sha_ni, used by erg's SHA-256): $(grep -qw sha_ni /proc/cpuinfo && echo yes || echo no)"
	echo "power.plist: $size_plain bytes, $samples samples; .gz: $size_gz bytes; 4x: $size_x4 bytes"
	echo
	printf '%-10s %30s %12s %10s\n' "what" "wall s: median [min - max]" "peak RSS MB" "CPU s"
	for n in cat sha256 zcat plain nodigest gz noop100 full1000 x4; do
		[ -f "$tmp/res/$n" ] || continue
		# shellcheck disable=SC2046
		set -- $(summ "$n" 1) "$(max "$n" 2)" "$(med "$n" 3)"
		awk -v n="$n" -v m="$1" -v lo="$2" -v hi="$3" -v rss="$4" -v cpu="$5" 'BEGIN {
			printf "%-10s %10.3f [%.3f - %.3f] %12.1f %10.2f\n", n, m, lo, hi, rss / 1024, cpu }'
	done
	echo
	sha=
	if [ -f "$tmp/res/sha256" ]; then sha=$(med sha256 1); fi
	awk -v cat="$(med cat 1)" -v sha="$sha" -v zcat="$(med zcat 1)" -v plain="$(med plain 1)" -v nd="$(med nodigest 1)" \
		-v gz="$(med gz 1)" -v noop="$(med noop100 1)" -v full="$(med full1000 1)" \
		-v rp="$(max plain 2)" -v rg="$(max gz 2)" -v rx="$(max x4 2)" '
	function verdict(ok) { return ok ? "meets" : "MISSES" }
	BEGIN {
		printf "%-44s %10s  %-8s %s\n", "ratio", "measured", "target", ""
		printf "%-44s %9.1fx  <= 4x     %s\n", "erg build plain / cat power.plist", plain / cat, verdict(plain / cat <= 4)
		printf "%-44s %9.1fx  <= 4x     %s\n", "erg build --no-digest plain / cat", nd / cat, verdict(nd / cat <= 4)
		if (sha != "")
			printf "%-44s %9.1fx  (the SHA-256 alone: the floor with digests)\n", "openssl sha256 power.plist / cat", sha / cat
		printf "%-44s %9.1fx  <= 2x     %s\n", "erg build gz / zcat power.plist.gz", gz / zcat, verdict(gz / zcat <= 2)
		printf "%-44s %7.1f MB  <= 64 MB  %s\n", "peak RSS, plain session (max)", rp / 1024, verdict(rp / 1024 <= 64)
		printf "%-44s %7.1f MB  <= 64 MB  %s\n", "peak RSS, gz session (max)", rg / 1024, verdict(rg / 1024 <= 64)
		printf "%-44s %7.1f MB  <= 64 MB  %s\n", "peak RSS, 4x power file", rx / 1024, verdict(rx / 1024 <= 64)
		printf "%-44s %7.0f ms  <= 50 ms  %s\n", "no-op rebuild, 100 runs", noop * 1000, verdict(noop <= 0.05)
		printf "%-44s %8.2f s  <= 10 s   %s\n", "full build, 1,000 small runs", full, verdict(full <= 10)
	}'
} > "$tmp/report"
cat "$tmp/report"
mkdir -p "$(dirname "$OUTFILE")"
cp "$tmp/report" "$OUTFILE"
say "bench: written to $OUTFILE"

# How erg grows with the archive: tests/bench/scale.sh (SCALE="" skips it).
if [ -n "${SCALE-1000 5000 20000}" ]; then
	BUILD=$BUILD JOBS="${JOBS:-}" sh tests/bench/scale.sh
fi
