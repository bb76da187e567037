#!/bin/sh
# tests/sh/carry.sh - a rebuild of a site that is not as erg left it
# (its folder record does not hold) carries unchanged files over from the
# previous site by hard links (cache_copy_files()), and the previous site
# stays intact whatever happens:
#   - after one run changed, every file the build did not render (not
#     listed by --explain, not in a re-read run's folders) is the previous
#     site's inode, at least one run and one view unit were carried, and
#     the site equals a full build (diff -r, the cache included);
#   - a build that fails after carrying (a later run with an error; a
#     failed write of the manifest, after the views were carried) leaves
#     every file of the previous site as it was: path, inode, link count
#     and checksum;
#   - where a link is refused (EXDEV injected by tests/inject), the files
#     are copied: new inodes, and still the site of a full build.
# A carried file written again in the same build is tests/unit/test_carry.c.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=carry
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH

a=$tmp/archive
site=$tmp/site
sum=$ERG_SRC/archive/apple-m4/2026-11-07-hello-server
shim=$b/inject/inject.so
# make asan: erg links ASan's runtime, which wants to be first in the
# library list; the shim goes first, which is harmless here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
"$b/tools/mksmall" "$tmp/small" > /dev/null
# Copies, not mkarchive's hard links (they share ctimes, so keys).
"$b/tools/mkarchive" "$tmp/linked" 12 "$tmp/small" "$tmp/small" "$sum" 3
cp -R "$tmp/linked" "$a"

build() { "$ERG" build --quiet --archive "$a" --out "$@"; }
# A site that is no longer as erg left it (a folder's times changed; its
# folder record, cache.h) is built whole into a new tree, what is
# unchanged carried by links; one that is is updated in place
# (tests/sh/update.sh).  Every build here carries.
untrust() { touch "$site/runs"; }
# Every file of a site: path, inode, links, checksum.
print() {
	(cd "$1" && find . -type f | sort | while IFS= read -r f; do
		printf '%s %s %s\n' "$f" "$(stat -c '%i %h' "$f")" "$(cksum < "$f")"
	done)
}
inodes() { (cd "$1" && find . -type f -printf '%P %i\n' | sort); }
# The files of $site the last build rendered: --explain's pages, every
# file of a run folder it lists, and that run's cached summary and record
# (OUT/.erg-cache/runs/<sha256 of its id>.json and .rec).
rendered_files() {
	sed -n 's|^erg: rendered ||p' "$tmp/explain" > "$tmp/r"
	sed -n 's|^runs/\(.*\)/$|\1|p' "$tmp/r" | while IFS= read -r id; do
		h=$(printf '%s' "$id" | sha256sum | cut -d' ' -f1)
		echo ".erg-cache/runs/$h.json"
		echo ".erg-cache/runs/$h.rec"
	done >> "$tmp/r"
	(cd "$site" && find . -type f -printf '%P\n') | sort | while IFS= read -r f; do
		if grep -qxF "$f" "$tmp/r"; then
			echo "$f"
			continue
		fi
		case $f in
		runs/*)
			id=${f#runs/}
			while IFS= read -r r; do
				case $r in runs/*/)
					case $id in "${r#runs/}"*) echo "$f"; break ;; esac ;;
				esac
			done < "$tmp/r"
			;;
		esac
	done
}

if build "$site" 2> "$tmp/err"; then
	ok "first build"
else
	notok "first build"
	show "$tmp/err"
fi

# One run changed: everything not rendered is the previous site's inode.
inodes "$site" > "$tmp/ino.before"
run=$(cd "$a" && find . -name meta.json | sort | sed -n '1s|^\./||;1s|/meta\.json$||p')
touch "$a/$run/notes.md"
untrust
build "$site" --explain 2> "$tmp/explain"
rendered_files | sort > "$tmp/rendered"
inodes "$site" > "$tmp/ino.after"
# not rendered, and not what every build writes outside the views: the
# manifest and record, the marker, the style sheet
join "$tmp/ino.before" "$tmp/ino.after" |
	grep -v -e '^\.erg-cache/[a-z]* ' -e '^\.erg-site ' -e '^erg\.css ' |
	awk '{ print $1, ($2 == $3 ? "same" : "new") }' > "$tmp/pairs"
join -v 1 "$tmp/pairs" "$tmp/rendered" > "$tmp/carried"
if [ -s "$tmp/carried" ] && ! grep -q ' new$' "$tmp/carried"; then
	ok "one run changed: the $(wc -l < "$tmp/carried") files not rendered are the previous site's inodes"
else
	notok "one run changed: files not rendered but not carried by a link"
	grep ' new$' "$tmp/carried" > "$tmp/bad"
	show "$tmp/bad"
fi
if grep -q "^runs/[^ ]*/index.html same" "$tmp/carried" &&
	grep -q "^machines/[^ ]*/index.html same" "$tmp/carried"; then
	ok "one run changed: unchanged runs and view units carried"
else
	notok "one run changed: no run page or machine page carried"
	show "$tmp/carried"
fi
if grep -q "^runs/$run/" "$tmp/rendered" && ! grep -q "^runs/$run/.* same$" "$tmp/pairs"; then
	ok "one run changed: its pages are new files"
else
	notok "one run changed: runs/$run/ not rendered afresh"
	show "$tmp/pairs"
fi
if [ "$(find "$site" -type f -links +1 | wc -l)" -eq 0 ]; then
	ok "one run changed: the old tree is gone, no file is linked twice"
else
	notok "one run changed: files with more than one link remain"
fi
site_same "one run changed"

# A build that fails after carrying: the first runs are carried, a later
# one (last in archive order) is broken.
print "$site" > "$tmp/print.before"
touch "$a/$run/notes.md"
mkdir -p "$a/zz-broken/1999-01-01-bad"
cp -R "$tmp/small/." "$a/zz-broken/1999-01-01-bad/"
printf '{ "title": ' > "$a/zz-broken/1999-01-01-bad/meta.json"
untrust
print "$site" > "$tmp/print.before"
if build "$site" -j 1 2> "$tmp/err"; then
	notok "a later run broken: the build succeeded"
else
	ok "a later run broken: the build fails"
fi
print "$site" > "$tmp/print.after"
if cmp -s "$tmp/print.before" "$tmp/print.after"; then
	ok "a later run broken: every file of the previous site as it was (path, inode, links, checksum)"
else
	notok "a later run broken: the previous site changed"
	diff "$tmp/print.before" "$tmp/print.after" > "$tmp/diff"
	show "$tmp/diff"
fi
if [ -z "$(ls -d "$site".tmp-* 2> /dev/null)" ]; then
	ok "a later run broken: no temporary tree left"
else
	notok "a later run broken: a temporary tree left"
fi
rm -rf "$a/zz-broken"

if [ ! -f "$shim" ]; then
	notok "shim $shim not built"
	exit 0
fi
# The manifest cannot be written: every view unit was carried by then.
touch "$a/$run/notes.md"
untrust
rm -f "$tmp/log"
ERG_INJECT_AFTER=0 ERG_INJECT_PATH='*/.erg-cache/manifest' ERG_INJECT_LOG="$tmp/log" \
	LD_PRELOAD="$shim" "$ERG" build --quiet --archive "$a" --out "$site" 2> "$tmp/err"
st=$?
print "$site" > "$tmp/print.after"
if [ "$st" -ne 0 ] && [ -s "$tmp/log" ] && cmp -s "$tmp/print.before" "$tmp/print.after"; then
	ok "the manifest's write fails: every file of the previous site as it was"
else
	notok "the manifest's write fails: status $st, or the previous site changed"
	diff "$tmp/print.before" "$tmp/print.after" > "$tmp/diff"
	show "$tmp/diff"
	show "$tmp/err"
fi

# No hard links here (another file system): copies, the same site.
untrust
inodes "$site" > "$tmp/ino.before"
rm -f "$tmp/log"
ERG_INJECT_LINK=EXDEV ERG_INJECT_LOG="$tmp/log" LD_PRELOAD="$shim" \
	"$ERG" build --quiet --archive "$a" --out "$site" 2> "$tmp/err"
st=$?
inodes "$site" > "$tmp/ino.after"
if [ "$st" -eq 0 ] && grep -q '^linkat' "$tmp/log" &&
	[ -z "$(join "$tmp/ino.before" "$tmp/ino.after" | awk '$2 == $3')" ]; then
	ok "links refused (EXDEV): every file is a new inode"
else
	notok "links refused (EXDEV): status $st, or a file kept its inode"
	show "$tmp/err"
fi
site_same "links refused"
