#!/bin/sh
# tests/sh/diff-out.sh - where `erg diff --out FILE` writes.  FILE is
# written through a temporary file and a rename, and replaced only when it
# is missing or an output of erg diff (any format: the text's A:/B: lines,
# the Markdown heading, the JSON's first member, the page's generator
# tag); a file of anyone else, a symbolic link, a FIFO or a directory is
# refused with one located message and status 1, before any run is read,
# and left as it was.
# --format html takes its template (diff.html) and stylesheets from
# --templates; a missing directory is an error before any run is read.
# Uses the bundled archive's published M5 headline against its session
# (no significance test: quick).  Environment: ERG, BUILD, ERG_SRC.
T=diff-out
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"

arch=$ERG_SRC/archive
P=m5-energy/2026-08-26-published-headline
S=m5-energy/2026-08-26T0856-saturated
if [ ! -f "$arch/$P/run.json" ] || [ ! -f "$arch/$S/meta.json" ]; then
	echo "ok - $T: skipped, no bundled archive"
	exit 0
fi
cd "$tmp" || exit 1

# erg diff with ARGS; status into st, stderr into err.
d() {
	timeout 60 "$ERG" diff --archive "$arch" --templates "$ERG_SRC/templates" "$@" \
		> stdout 2> err
	st=$?
}

# refused WHAT FILE WANT-MESSAGE: status 1, stderr exactly the message.
refused() {
	printf '%s\n' "$3" > want
	if [ "$st" -eq 1 ] && cmp -s want err; then
		ok "$1: refused, status 1, one located message"
	else
		notok "$1: status $st (want 1), or not the message '$3'"
		show err
	fi
}

"$ERG" diff --archive "$arch" "$P" "$S" > expect.txt 2> /dev/null
d --out out.txt "$P" "$S"
if [ "$st" -eq 0 ] && cmp -s expect.txt out.txt && [ ! -s stdout ]; then
	ok "a new file: written, the same bytes as standard output"
else
	notok "a new file: status $st or other bytes"
fi
for f in markdown json html text; do
	d --format $f --out out.txt "$P" "$S"
	if [ "$st" -eq 0 ] && [ ! -s err ]; then
		ok "its own output replaced by the $f output"
	else
		notok "its own output not replaced by $f (status $st)"
		show err
	fi
done
if cmp -s expect.txt out.txt; then ok "and the last one is what it wrote"; else notok "content"; fi

printf 'my notes\n' > notes.txt
cp notes.txt notes.orig
# B does not exist: had a run been looked at, stderr would say so too.
d --out notes.txt "$P" no-such-run
refused "a file erg did not write, before any run is read" notes.txt \
	"erg: notes.txt: error: exists and is not a file erg wrote; erg leaves it alone (remove it, or choose another name)"
if cmp -s notes.txt notes.orig; then ok "and it is untouched"; else notok "notes.txt changed"; fi

# Look-alikes: the first line of a text output, a heading, a page without the tag.
printf 'A: x\nsomething else\n' > like.txt
d --out like.txt "$P" "$S"
refused "a file starting 'A: '" like.txt \
	"erg: like.txt: error: exists and is not a file erg wrote; erg leaves it alone (remove it, or choose another name)"
printf '<!DOCTYPE html>\n<html><title>mine</title></html>\n' > page.html
d --format html --out page.html "$P" "$S"
refused "a page without erg's generator tag" page.html \
	"erg: page.html: error: exists and is not a file erg wrote; erg leaves it alone (remove it, or choose another name)"

ln -s notes.txt link.txt
d --out link.txt "$P" "$S"
refused "a symbolic link" link.txt \
	"erg: link.txt: error: exists and is a symbolic link; erg only replaces a file it wrote"
if cmp -s notes.txt notes.orig && [ -L link.txt ]; then
	ok "the link and its target are untouched"
else
	notok "the link or its target changed"
fi
mkdir dir.txt
d --out dir.txt "$P" "$S"
refused "a directory" dir.txt \
	"erg: dir.txt: error: exists and is a directory; erg only replaces a file it wrote"
if mkfifo fifo.txt 2> /dev/null; then
	d --out fifo.txt "$P" "$S"
	refused "a FIFO (not opened: the command returns)" fifo.txt \
		"erg: fifo.txt: error: exists and is a FIFO; erg only replaces a file it wrote"
fi

timeout 60 "$ERG" diff --archive "$arch" --templates "$tmp/none" --format html --out none.html \
	"$P" "$S" > /dev/null 2> err
st=$?
refused "--format html with a missing template directory" none.html \
	"erg: error: template directory '$tmp/none' not found (use --templates)"
if [ ! -e none.html ]; then ok "and nothing is written"; else notok "none.html written"; fi

left=$(ls -A | grep -c '\.tmp-' || true)
if [ "$left" -eq 0 ]; then ok "no temporary file left over"; else notok "$left temporary files left"; fi
exit 0
