#!/bin/sh
# Bad input: every case gets one precise located error, a non-zero exit,
# and leaves an existing output tree untouched.  Cases are variants of the
# small hand-made session (tests/tools/mksmall.c) or edits of it.
set -u
: "${ERG:?}" "${BUILD:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

# A good site first; every failing build below must leave it as it is.
"$BUILD/tools/mksmall" "$tmp/good/2023/small" >/dev/null
if "$ERG" build --quiet --archive "$tmp/good" --out "$tmp/site" 2>"$tmp/err"; then
	ok "good archive builds"
else
	notok "good archive builds: $(cat "$tmp/err")"
fi
before=$(cd "$tmp/site" && find . -type f | sort | xargs cat | cksum)

# case NAME, then a sed-style regex the single error line must match.
expect() {
	name=$1 pattern=$2 arch=$tmp/case-$1
	n=$((n + 1))
	if "$ERG" check --archive "$arch" >"$tmp/out" 2>"$tmp/err"; then
		notok "$name: check exits 0"
	else
		ok "$name: check exits non-zero"
	fi
	if grep -Eq "$pattern" "$tmp/err"; then
		ok "$name: message matches '$pattern'"
	else
		notok "$name: message '$(head -3 "$tmp/err")' does not match '$pattern'"
	fi
	if "$ERG" build --quiet --archive "$arch" --out "$tmp/site" 2>/dev/null; then
		notok "$name: build exits 0"
	else
		after=$(cd "$tmp/site" && find . -type f | sort | xargs cat | cksum)
		if [ "$before" = "$after" ] && [ -z "$(ls -d "$tmp"/site.tmp-* 2>/dev/null)" ]; then
			ok "$name: previous site untouched, no temporary tree left"
		else
			notok "$name: previous site changed or temporary tree left"
		fi
	fi
}

mk() { # case-name variant
	"$BUILD/tools/mksmall" "$tmp/case-$1/run" "$2" >/dev/null
}

mk broken-xml broken-xml
expect broken-xml '^erg: .*/run/power\.plist:@[0-9]+: error: sample 40: broken XML plist'

mk bad-energy bad-energy
expect bad-energy "^erg: .*/run/power\.plist:@[0-9]+: error: sample 40: 'processor\.cpu_energy' is a string"

mk bad-json-line bad-json-line
expect bad-json-line '^erg: .*/run/timeline\.jsonl:11: error: invalid JSON: '

mk missing-load missing-load
expect missing-load "^erg: .*/run/timeline\.jsonl:9: error: load file 'bombardier/nope\.json': no such file"

mk escape-load escape-load
expect escape-load "^erg: .*/run/timeline\.jsonl:9: error: load file '\.\./\.\./\.\./etc/passwd': path escapes the run directory"

mk window-outside window-outside
expect window-outside "^erg: .*/run/timeline\.jsonl:20: error: window 'b' of 'r2-s2-alpha' lies outside the power data"

mk mismatch mismatch
expect mismatch "^erg: .*/run/timeline\.jsonl:5: error: requests 6001 differ from 6000"

# A symbolic link that leaves the run directory.
mk symlink ""
rm "$tmp/case-symlink/run/bombardier/r1-s1-alpha-a.json"
ln -s /etc/hostname "$tmp/case-symlink/run/bombardier/r1-s1-alpha-a.json"
expect symlink "^erg: .*/run/timeline\.jsonl:4: error: load file 'bombardier/r1-s1-alpha-a\.json': path leaves the run directory"

# A truncated gzip power file.
mk truncated-gz ""
gzip -9n "$tmp/case-truncated-gz/run/power.plist"
size=$(wc -c < "$tmp/case-truncated-gz/run/power.plist.gz")
head -c $((size / 2)) "$tmp/case-truncated-gz/run/power.plist.gz" > "$tmp/half.gz"
mv "$tmp/half.gz" "$tmp/case-truncated-gz/run/power.plist.gz"
expect truncated-gz '^erg: .*/run/power\.plist\.gz:@[0-9]+: error: truncated gzip'

# A gzip bomb: more inflated bytes than the cap allows.
mk bomb ""
rm "$tmp/case-bomb/run/power.plist"
head -c 20000000 /dev/zero | gzip -9n > "$tmp/case-bomb/run/power.plist.gz"
n=$((n + 1))
if "$ERG" check --max-inflated 1000000 --archive "$tmp/case-bomb" 2>"$tmp/err"; then
	notok "bomb: check exits 0"
else
	grep -Eq 'power\.plist\.gz:@[0-9]+: error: inflated size exceeds' "$tmp/err" &&
		ok "bomb: stopped at the inflation cap" ||
		notok "bomb: message '$(head -2 "$tmp/err")'"
fi

# The CLI itself: a usage error of build or check exits 2 (erg.1, as
# diff does) with one message, before anything is read or written.
usage() { # expected-message erg-arguments...
	want=$1
	shift
	"$ERG" "$@" > /dev/null 2> "$tmp/err"
	st=$?
	if [ "$st" -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ]; then
		ok "usage error 'erg $*': status 2, '$want'"
	else
		notok "usage error 'erg $*': status $st, '$(cat "$tmp/err")' (want 2, '$want')"
	fi
}
for cmd in build check; do
	usage "erg: error: unknown option '--bogus' (see 'erg help $cmd')" $cmd --bogus
	usage "erg: error: unexpected argument 'extra' (see 'erg help $cmd')" $cmd extra
	usage "erg: error: option '--archive' needs a value (see 'erg help $cmd')" $cmd --archive
	usage "erg: error: option '-j' needs a value (see 'erg help $cmd')" $cmd -j
	usage "erg: error: -j wants a positive whole number, not '0'" $cmd -j 0
	usage "erg: error: -j wants a positive whole number, not 'x'" $cmd -jx
	usage "erg: error: --jobs wants at most 1024, not '2000'" $cmd --jobs 2000
	usage "erg: error: --max-file wants a positive whole number, not '1e3'" $cmd --max-file 1e3
done
usage "erg: error: option '--out' needs a value (see 'erg help build')" build --out
usage "erg: error: unknown option '--out' (see 'erg help check')" check --out x
# A usage error comes before the build: the site stays as it was.
"$ERG" build --quiet --archive "$tmp/good" --out "$tmp/site" -j 0 2> /dev/null
after=$(cd "$tmp/site" && find . -type f | sort | xargs cat | cksum)
[ "$before" = "$after" ] && ok "usage error: previous site untouched" ||
	notok "usage error: previous site changed"
"$ERG" --version | grep -Eq '^erg [0-9]+\.[0-9]+' && ok "--version" || notok "--version"
"$ERG" help build | grep -q 'usage: erg build' && ok "help build" || notok "help build"
