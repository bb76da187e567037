#!/bin/sh
# tests/sh/make.sh - the Makefile's own targets, in scratch directories:
#   1. make install DESTDIR=D PREFIX=P puts the binary (as built), the
#      templates and the man page (as in the tree) under D/P; the installed
#      erg, run from a directory without templates and without
#      ERG_TEMPLATES, finds its templates (P/share/erg/templates) and builds
#      the small session's site exactly as tests/golden/small/ has it; the
#      default PREFIX is /usr/local;
#   2. make uninstall removes every file install wrote and the directories
#      it made for erg alone, and keeps what it did not write;
#   3. pkg-config: with no library it can find, without one library
#      (nettle), and without pkg-config itself, a build stops before
#      compiling anything with one message naming what is missing, its
#      Debian package, and 'make deps'; make deps and make clean need no
#      library (make -n: nothing is installed or removed here).
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=make
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
# Not the outer make's jobserver or command-line variables.
unset MAKEFLAGS MFLAGS MAKELEVEL ERG_TEMPLATES
mk() { make -s -C "$ERG_SRC" BUILD="$BUILD" "$@"; }
check() { # description, command...
	d_=$1
	shift
	if "$@"; then ok "$d_"; else notok "$d_"; fi
}

# 1. install
root=$tmp/root
p=/opt/erg-test
if mk install DESTDIR="$root" PREFIX="$p" > "$tmp/out" 2>&1; then
	ok "install DESTDIR PREFIX: status 0"
else
	notok "install DESTDIR PREFIX failed"
	show "$tmp/out"
fi
check "install: bin/erg is the built binary, executable" \
	sh -c '[ -x "$1" ] && cmp -s "$1" "$2"' sh "$root$p/bin/erg" "$ERG"
check "install: share/erg/templates equals templates/" \
	diff -r "$ERG_SRC/templates" "$root$p/share/erg/templates"
check "install: share/man/man1/erg.1 equals erg.1" \
	cmp -s "$ERG_SRC/erg.1" "$root$p/share/man/man1/erg.1"
(cd "$root" && find . | sort) > "$tmp/installed"
n=$(grep -c . "$tmp/installed")
# the templates, bin/erg, erg.1, and 9 directories from . to share/man/man1
want=$(( $(ls "$ERG_SRC/templates" | wc -l) + 2 + 9 ))
if [ "$n" -eq "$want" ]; then
	ok "install: nothing else written ($n entries: the files and their directories)"
else
	notok "install: $n entries under DESTDIR, want $want"
	show "$tmp/installed"
fi
mkdir -p "$tmp/a/2023-11" "$tmp/cwd"
"$b/tools/mksmall" "$tmp/a/2023-11/small" > /dev/null
if (cd "$tmp/cwd" && LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=1700000000 \
	"$root$p/bin/erg" build --quiet --archive "$tmp/a" --out "$tmp/site") 2> "$tmp/err"; then
	ok "the installed erg builds without --templates"
else
	notok "the installed erg fails without --templates"
	show "$tmp/err"
fi
if diff -r -x .erg-cache "$ERG_SRC/tests/golden/small" "$tmp/site" > "$tmp/diff" 2>&1; then
	ok "the installed erg's site equals tests/golden/small (its templates were found)"
else
	notok "the installed erg's site differs from tests/golden/small"
	show "$tmp/diff"
fi
mk -n install DESTDIR="$tmp/d" > "$tmp/out" 2>&1
check "install: PREFIX defaults to /usr/local" \
	grep -qF "install -m 755 $BUILD/erg \"$tmp/d/usr/local/bin/erg\"" "$tmp/out"

# 2. uninstall
echo mine > "$root$p/bin/other"
mk uninstall DESTDIR="$root" PREFIX="$p" > "$tmp/out" 2>&1
rc=$?
(cd "$root" && find . -type f | sort) > "$tmp/left"
if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/left")" = "./opt/erg-test/bin/other" ] &&
	[ ! -e "$root$p/share/erg" ]; then
	ok "uninstall removes what install wrote and share/erg, keeps bin/other"
else
	notok "uninstall (status $rc)"
	show "$tmp/left"
	show "$tmp/out"
fi
mk install DESTDIR="$root" PREFIX="$p" > /dev/null 2>&1
echo mine > "$root$p/share/erg/templates/mine.html"
mk uninstall DESTDIR="$root" PREFIX="$p" > "$tmp/out" 2>&1
rc=$?
(cd "$root" && find . -type f | sort) > "$tmp/left"
if [ "$rc" -eq 0 ] && [ "$(sed -n 2p "$tmp/left")" = "./opt/erg-test/share/erg/templates/mine.html" ] &&
	[ "$(wc -l < "$tmp/left")" -eq 2 ]; then
	ok "uninstall keeps a file it did not write among the templates (and its directory)"
else
	notok "uninstall with a foreign template (status $rc)"
	show "$tmp/left"
	show "$tmp/out"
fi
mk uninstall DESTDIR="$root" PREFIX="$p" > "$tmp/out" 2>&1
check "uninstall of what is not installed: status 0" test $? -eq 0

# 3. pkg-config
# stops NAME EXPECTED-MESSAGE ENV...: make all into a new build directory.
stops() {
	name=$1
	msg=$2
	shift 2
	env "$@" make -s -C "$ERG_SRC" BUILD="$tmp/b" all > "$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] && grep -qF "*** $msg.  Stop." "$tmp/out" && [ ! -e "$tmp/b" ]; then
		ok "$name: stops before compiling (status $rc): $msg"
	else
		notok "$name: status $rc, want: $msg"
		show "$tmp/out"
	fi
}
mkdir -p "$tmp/nopc" "$tmp/pc"
stops "no library" "pkg-config does not find 'libplist-2.0' (Debian libplist-dev), \
'libcmark-gfm' (Debian libcmark-gfm-dev and libcmark-gfm-extensions-dev), 'jansson' (Debian libjansson-dev), 'zlib' (Debian \
zlib1g-dev), 'nettle' (Debian nettle-dev): install the build dependencies with 'make deps'" \
	PKG_CONFIG_LIBDIR="$tmp/nopc"
for l in libplist-2.0 libcmark-gfm jansson zlib; do
	cp "$(pkg-config --variable=pcfiledir "$l")/$l.pc" "$tmp/pc/"
done
stops "no nettle" "pkg-config does not find 'nettle' (Debian nettle-dev): install the build \
dependencies with 'make deps'" PKG_CONFIG_LIBDIR="$tmp/pc"
stops "no pkg-config" "'$tmp/none' is not installed (Debian pkg-config): install the build \
dependencies with 'make deps'" PKG_CONFIG="$tmp/none"
for t in deps test-deps clean uninstall; do
	PKG_CONFIG_LIBDIR="$tmp/nopc" make -n -C "$ERG_SRC" BUILD="$tmp/b" $t > "$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "make -n $t needs no library"
	else
		notok "make -n $t without the libraries: status $rc"
		show "$tmp/out"
	fi
done
exit 0
