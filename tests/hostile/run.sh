#!/bin/sh
# tests/hostile/run.sh - the hostile-input corpus (README.md): every case
# is an archive erg must refuse with one precise message, or build safely.
#
# usage: sh tests/hostile/run.sh [CASE...]        (from the source root)
# Environment: ERG (the erg binary), BUILD; HOSTILE_REGEN=1 rewrites each
# case's expected.stderr and expected.status from what erg does now (review
# with git diff).  Prints one "ok - ..." / "not ok - ..." line per
# expectation.
set -u
: "${ERG:?}" "${BUILD:?}"
src=${ERG_SRC:-$(pwd)}
HOSTILE=$src/tests/hostile
MKSMALL=$src/$BUILD/tools/mksmall
export HOSTILE MKSMALL ERG BUILD
LC_ALL=C TZ=UTC
export LC_ALL TZ
# tmpfs when there is one: runs-100k makes 100,000 directories.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	tmp=$(mktemp -d /dev/shm/erg-hostile.XXXXXX)
else
	tmp=$(mktemp -d)
fi
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - hostile $*"; }
notok() { echo "not ok - hostile $*"; }

# Every file's path, size and CRC, by one cksum (not one per file: that
# was a fork for each page of the site, twice in every case).
fingerprint() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r cksum)
}

# A good site, the "previous site" every failing case must leave alone.
good=$tmp/good
mkdir -p "$good/2023"
"$MKSMALL" "$good/2023/small" >/dev/null
prev=$tmp/site
good_site() {
	rm -rf "$prev"
	if "$ERG" build --quiet --archive "$good" --out "$prev" 2>"$tmp/err"; then
		fingerprint "$prev" > "$tmp/prev.fp"
	else
		notok "setup: the good archive does not build: $(head -2 "$tmp/err")"
		exit 0
	fi
}
good_site

# Replace the run's own paths by placeholders, so goldens do not depend on
# where the test ran: @ARCHIVE@, @OUT@, and @OUT@.tmp-@TMP@ for the
# temporary tree.
normalise() {
	perl -pe 'BEGIN { ($a, $o) = @ARGV; @ARGV = () }
		s/\Q$a\E/\@ARCHIVE\@/g; s/\Q$o\E\.tmp-[A-Za-z0-9]{6}/\@OUT\@.tmp-\@TMP\@/g;
		s/\Q$o\E/\@OUT\@/g' "$1" "$2"
}

# stderr against expected.stderr (exact) or expected.stderr.re (one Perl
# regular expression per line, matched against the whole line).
stderr_matches() { # actual expected-file is-regex
	perl -e '
		my ($act, $exp, $re) = @ARGV;
		open(my $a, "<", $act) or die; open(my $e, "<", $exp) or die;
		my @a = <$a>; my @e = <$e>; chomp(@a, @e);
		if (@a != @e) { print scalar(@a), " lines, expected ", scalar(@e), "\n"; exit 1 }
		for my $i (0 .. $#a) {
			my $ok = $re ? $a[$i] =~ /^(?:$e[$i])$/ : $a[$i] eq $e[$i];
			next if $ok;
			print "line ", $i + 1, ": got \"$a[$i]\"\n"; exit 1;
		}' "$1" "$2" "$3"
}

if [ $# -eq 0 ]; then
	set -- $(cd "$HOSTILE" && for d in */; do [ -f "$d/expected.status" ] && echo "${d%/}"; done)
fi
for c in "$@"; do
	dir=$HOSTILE/$c
	work=$tmp/case-$c
	mkdir -p "$work"
	if [ -f "$dir/make.sh" ]; then
		arch=$work/archive
		if ! (cd "$dir" && sh -e ./make.sh "$arch") >"$work/make.out" 2>&1; then
			notok "$c: make.sh failed: $(tail -2 "$work/make.out")"
			continue
		fi
	else
		arch=$dir/archive
	fi
	want=$(cat "$dir/expected.status" 2>/dev/null || echo 1)
	limit=$(cat "$dir/time-limit" 2>/dev/null || echo 60)
	args=$(cat "$dir/args" 2>/dev/null || true)
	if [ "$want" -eq 0 ]; then
		out=$work/site
	else
		out=$prev
	fi
	t0=$(date +%s)
	# shellcheck disable=SC2086
	timeout "$limit" "$ERG" build --quiet --archive "$arch" --out "$out" $args \
		>"$work/stdout" 2>"$work/stderr.raw"
	st=$?
	t1=$(date +%s)
	normalise "$arch" "$out" < "$work/stderr.raw" > "$work/stderr"
	if [ "${HOSTILE_REGEN:-}" = 1 ]; then
		echo "$st" > "$dir/expected.status"
		[ -f "$dir/expected.stderr.re" ] || cp "$work/stderr" "$dir/expected.stderr"
	fi
	if [ "$st" -eq 124 ]; then
		notok "$c: not finished within $limit s"
	else
		ok "$c: finished in $((t1 - t0)) s (limit $limit s)"
	fi
	if [ "$st" -eq "$want" ]; then
		ok "$c: exit status $st"
	else
		notok "$c: exit status $st, expected $want"
	fi
	if [ -f "$dir/expected.stderr.re" ]; then
		exp=$dir/expected.stderr.re re=1
	else
		exp=$dir/expected.stderr re=0
	fi
	if why=$(stderr_matches "$work/stderr" "$exp" "$re" 2>&1); then
		ok "$c: stderr as expected ($(head -1 "$work/stderr" | cut -c1-120))"
	else
		notok "$c: stderr: $why"
		sed 's/^/# /' "$work/stderr" | head -5
	fi
	if [ "$want" -ne 0 ]; then
		fingerprint "$prev" > "$work/after.fp"
		if cmp -s "$tmp/prev.fp" "$work/after.fp" &&
		   [ -z "$(ls -d "$prev".tmp-* "$prev".old-* 2>/dev/null)" ]; then
			ok "$c: previous site byte-identical, no temporary tree left"
		else
			notok "$c: previous site changed or a temporary tree was left"
			# Start the next case from an intact site again.
			rm -rf "$prev".tmp-* "$prev".old-*
			good_site
		fi
	elif [ -f "$dir/check.sh" ]; then
		# Extra checks of the built site, one ok/not ok line each.
		OUT=$out ARCHIVE=$arch sh "$dir/check.sh" 2>&1 |
			sed -e "s/^ok - /ok - hostile $c: /" -e "s/^not ok - /not ok - hostile $c: /"
	fi
	rm -rf "$work"
done
