#!/bin/sh
# tests/sh/outsafe.sh - erg never deletes what it did not write.
# erg build replaces --out as a whole, so it must refuse, before reading
# any run, with exit status 1 and one located message, an --out that is
# the archive (also through a symbolic link, "..", a trailing slash), an
# ancestor of it, a directory inside it, a symbolic link, a regular file,
# or a non-empty directory that is not a site erg wrote; and every file
# there must survive byte for byte.  It accepts an empty directory, a
# missing one, a site it wrote (the .erg-site marker) and a site of an
# older erg (.erg-cache, no marker), and then writes the marker.
# Each refused build is given an archive that also holds a broken run:
# had any run been read, stderr would hold its error as well.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=outsafe
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

# Every entry under a directory: path, type, mode, size, link target,
# and the checksum of each regular file.
snapshot() {
	(cd "$1" && find . -printf '%p %y %m %s %l\n' | sort &&
		find . -type f | sort | xargs -r cksum)
}

# refused WHAT OUT-ARG WANT-MESSAGE [DIR-THAT-MUST-SURVIVE]: (archive $arch)
# the build must fail with status 1, stderr exactly WANT-MESSAGE (one
# line), the directory unchanged and nothing left beside OUT.
refused() {
	what=$1 out=$2 want=$3 keep=${4:-$2}
	snapshot "$keep" > "$tmp/before" 2> /dev/null
	timeout 60 "$ERG" build --quiet --archive "$arch" --out "$out" \
		> /dev/null 2> "$tmp/err"
	st=$?
	printf '%s\n' "$want" > "$tmp/want"
	if [ "$st" -eq 1 ] && cmp -s "$tmp/want" "$tmp/err"; then
		ok "$what: refused, status 1, one located message"
	else
		notok "$what: status $st (want 1), or not the message '$want'"
		show "$tmp/err"
	fi
	snapshot "$keep" > "$tmp/after" 2> /dev/null
	if [ -s "$tmp/before" ] && cmp -s "$tmp/before" "$tmp/after"; then
		ok "$what: '$keep' unchanged ($(grep -c '^\./' "$tmp/before") entries)"
	else
		notok "$what: '$keep' changed"
		diff "$tmp/before" "$tmp/after" > "$tmp/diff" 2>&1
		show "$tmp/diff"
	fi
	o=${out%/}
	if [ -z "$(ls -d "$o".tmp-* "$o".old-* 2> /dev/null)" ]; then
		ok "$what: nothing left beside it"
	else
		notok "$what: a temporary tree was left beside it"
	fi
}

# accepted WHAT OUT: the build succeeds and leaves a site with its marker.
accepted() {
	if timeout 60 "$ERG" build --quiet --archive "$g" --out "$2" 2> "$tmp/err" &&
		[ ! -s "$tmp/err" ] && [ -f "$2/index.html" ] && [ -f "$2/.erg-site" ]; then
		ok "$1: built, with the .erg-site marker"
	else
		notok "$1: not built"
		show "$tmp/err"
	fi
}

# An archive with a good run, a broken one, and files of the user's own.
a=$tmp/work/archive
arch=$a
"$b/tools/mksmall" "$a/2023/good" > /dev/null
"$b/tools/mksmall" "$a/2023/broken" bad-json-line > /dev/null
printf '# my archive\n' > "$a/README.md"
mkdir -p "$a/2023/attachments"
printf 'raw notes\n' > "$a/2023/attachments/log.txt"
printf 'beside the archive\n' > "$tmp/work/plan.md"
# A good archive, for the builds that must succeed.
g=$tmp/good
"$b/tools/mksmall" "$g/2023/good" > /dev/null

# 1. --out is the archive, however it is spelled
refused "--out is the archive" "$a" \
	"erg: $a: error: is the archive; erg replaces --out as a whole (choose a directory outside the archive)" "$a"
refused "--out is the archive with a trailing slash" "$a/" \
	"erg: $a: error: is the archive; erg replaces --out as a whole (choose a directory outside the archive)" "$a"
refused "--out is the archive through '..'" "$a/2023/.." \
	"erg: $a/2023/..: error: is the archive; erg replaces --out as a whole (choose a directory outside the archive)" "$a"
(cd "$tmp/work" && refused "--out ./archive, relative" "./archive" \
	"erg: ./archive: error: is the archive; erg replaces --out as a whole (choose a directory outside the archive)" "$a")
ln -s archive "$tmp/work/alias"
arch=$tmp/work/alias
refused "--archive a link to --out" "$a" \
	"erg: $a: error: is the archive; erg replaces --out as a whole (choose a directory outside the archive)" "$a"
arch=$a

# 2. --out holds the archive
refused "--out is the archive's parent" "$tmp/work" \
	"erg: $tmp/work: error: holds the archive '$a'; erg replaces --out as a whole (choose a directory outside the archive)" "$tmp/work"
refused "--out is the archive's parent through '..'" "$a/.." \
	"erg: $a/..: error: holds the archive '$a'; erg replaces --out as a whole (choose a directory outside the archive)" "$tmp/work"
refused "--out is the root directory" "/" \
	"erg: /: error: holds the archive '$a'; erg replaces --out as a whole (choose a directory outside the archive)" "$tmp/work"

# 3. --out inside the archive: a site there would be scanned with the
# runs next time; refused whether it exists or not
refused "--out a new directory inside the archive" "$a/site" \
	"erg: $a/site: error: is inside the archive '$a'; a site there would be read as part of the archive (choose a directory outside it)" "$a"
refused "--out an existing directory inside the archive" "$a/2023/attachments" \
	"erg: $a/2023/attachments: error: is inside the archive '$a'; a site there would be read as part of the archive (choose a directory outside it)" "$a"
ln -s "$a/2023" "$tmp/into"
refused "--out inside the archive through a linked parent" "$tmp/into/site" \
	"erg: $tmp/into/site: error: is inside the archive '$a'; a site there would be read as part of the archive (choose a directory outside it)" "$a"

# 4. a directory of the user's own
mkdir -p "$tmp/docs/img"
printf '# Docs\n' > "$tmp/docs/index.md"
printf 'x' > "$tmp/docs/img/a.png"
printf 'hidden\n' > "$tmp/docs/.config"
refused "--out a docs/ folder" "$tmp/docs" \
	"erg: $tmp/docs: error: is not empty and is not a site erg wrote (no '.erg-site'); erg replaces --out as a whole, so it leaves this one alone"
mkdir -p "$tmp/hidden-only"
printf 'x\n' > "$tmp/hidden-only/.htaccess"
refused "--out a folder holding one hidden file" "$tmp/hidden-only" \
	"erg: $tmp/hidden-only: error: is not empty and is not a site erg wrote (no '.erg-site'); erg replaces --out as a whole, so it leaves this one alone"
# a marker that is not a regular file does not count
mkdir -p "$tmp/fake/.erg-site"
printf 'mine\n' > "$tmp/fake/data.txt"
refused "--out a folder whose .erg-site is a directory" "$tmp/fake" \
	"erg: $tmp/fake: error: is not empty and is not a site erg wrote (no '.erg-site'); erg replaces --out as a whole, so it leaves this one alone"

# 5. a symbolic link, even to a site erg wrote; a regular file
accepted "a site to link to" "$tmp/real-site"
ln -s real-site "$tmp/link-site"
refused "--out a symbolic link to a site" "$tmp/link-site" \
	"erg: $tmp/link-site: error: is a symbolic link; erg does not replace it (give the directory itself as --out)" "$tmp/real-site"
if [ -L "$tmp/link-site" ]; then ok "--out a symbolic link: still a link"; else notok "--out a symbolic link: replaced"; fi
refused "--out a symbolic link, trailing slash" "$tmp/link-site/" \
	"erg: $tmp/link-site: error: is a symbolic link; erg does not replace it (give the directory itself as --out)" "$tmp/real-site"
printf 'not a directory\n' > "$tmp/file"
refused "--out a regular file" "$tmp/file" \
	"erg: $tmp/file: error: exists and is not a directory" "$tmp/docs"
if [ "$(cat "$tmp/file")" = "not a directory" ]; then ok "--out a regular file: intact"; else notok "--out a regular file: changed"; fi

# 6. what erg may replace
mkdir -p "$tmp/empty"
accepted "--out an empty directory" "$tmp/empty"
accepted "--out a directory that does not exist" "$tmp/new/"
accepted "--out a site erg wrote" "$tmp/empty"
rm "$tmp/empty/.erg-site"
printf 'extra\n' > "$tmp/empty/CNAME"
accepted "--out a site of an older erg (.erg-cache, no marker)" "$tmp/empty"
if [ ! -e "$tmp/empty/CNAME" ]; then
	ok "--out an older erg's site: replaced as a whole"
else
	notok "--out an older erg's site: a file from before is still there"
fi

exit 0
