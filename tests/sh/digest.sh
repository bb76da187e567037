#!/bin/sh
# tests/sh/digest.sh - the raw-files table of a run (runs/<id>/results.json
# "files", the "Raw files" table of runs/<id>/index.html) and
# `erg build --no-digest`:
#   1. digests: for every run, the files listed are exactly the files of the
#      run in the archive, each "sha256" equals coreutils sha256sum of the
#      file and each "bytes" equals wc -c, and the page shows the same size
#      and digest.  This checks erg's own SHA-256 independently, the power
#      files included, which erg digests while it parses them: a plain
#      power.plist, a power.plist.gz, a plain power.plist continued by a
#      gzipped power.plist.1.gz, and (when the reference dataset or the
#      committed archive is there) a plain and a gzipped power file of more
#      than 8 MiB on disk, which erg hashes on a helper thread
#      (input_hash_async_min);
#   2. --no-digest: every "sha256" is null, every "bytes" is still the size
#      on disk, every page cell says "not computed" and the page says why in
#      a caveat; nothing else of the site changes (results.json equal but
#      for the digests, no other file differs); a default build says no
#      such thing;
#   3. the build cache knows the digest setting: switching it either way
#      reads every run again (not "is up to date", none unchanged) and gives
#      the site a fresh build of that setting gives; repeating a build is up
#      to date; runs reused from a --no-digest site keep their nulls;
#   4. erg check and erg diff, which compute no digest, still read every
#      byte: a gzip power file with a bad CRC or truncated fails them (and
#      a --no-digest build) with a located diagnostic; `erg check
#      --no-digest` is accepted and changes nothing.
# Environment: ERG, BUILD, ERG_SRC, SHARED (set by tests/run.sh).
T=digest
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
unset SOURCE_DATE_EPOCH
tab=$(printf '\t')

# The archive (nothing in it but runs: every file is a raw file of a run).
a=$tmp/archive
"$b/tools/mksmall" "$a/2023-11/plain" > /dev/null
"$b/tools/mksmall" "$a/2023-11/gz" > /dev/null
gzip -n "$a/2023-11/gz/power.plist"
# power.plist with the first 53 samples (each ends with a NUL), the rest
# in power.plist.1.gz.
"$b/tools/mksmall" "$a/2023-11/split" > /dev/null
python3 - "$a/2023-11/split" << 'EOF'
import sys
d = sys.argv[1]
data = open(d + '/power.plist', 'rb').read()
i = -1
for _ in range(53):
    i = data.index(b'\0', i + 1)
open(d + '/power.plist', 'wb').write(data[:i + 1])
open(d + '/power.plist.1', 'wb').write(data[i + 1:])
EOF
gzip -n "$a/2023-11/split/power.plist.1"
# The reference session with its 21 MB power stream, plain, and gzipped
# without compression (stored blocks) so that the .gz is as big on disk.
if [ -f "$SHARED/reference/energy-benchmark-m5.json" ]; then
	"$b/tools/rebuild" --plain "$SHARED/reference/energy-benchmark-m5.json" "$a/m5/big" \
		> /dev/null 2>&1
elif [ -f "$ERG_SRC/archive/m5-energy/2026-08-26T0856-saturated/power.plist.gz" ]; then
	mkdir -p "$a/m5"
	cp -R "$ERG_SRC/archive/m5-energy/2026-08-26T0856-saturated" "$a/m5/big"
	gzip -d "$a/m5/big/power.plist.gz"
fi
big=0
if [ -f "$a/m5/big/power.plist" ]; then
	cp -R "$a/m5/big" "$a/m5/biggz"
	python3 - "$a/m5/biggz/power.plist" << 'EOF'
import gzip, os, sys
p = sys.argv[1]
with open(p, 'rb') as f:
    data = f.read()
with open(p + '.gz', 'wb') as f:
    f.write(gzip.compress(data, compresslevel=0, mtime=0))
os.remove(p)
EOF
	min=8388608
	s1=$(wc -c < "$a/m5/big/power.plist" | tr -d ' ')
	s2=$(wc -c < "$a/m5/biggz/power.plist.gz" | tr -d ' ')
	if [ "$s1" -ge "$min" ] && [ "$s2" -ge "$min" ]; then
		big=1
		ok "big power files: power.plist $s1 bytes, power.plist.gz $s2 bytes (>= 8 MiB: hashed on the helper thread)"
	else
		notok "big power files are under 8 MiB ($s1, $s2 bytes): the helper thread is not exercised"
	fi
else
	notok "no reference session (neither SHARED nor archive/): no power file >= 8 MiB"
fi
nruns=$(find "$a" -name timeline.jsonl | wc -l | tr -d ' ')

# Every file of the archive: path (run id/name), wc -c, sha256sum.
(cd "$a" && find . -type f | sed 's|^\./||' | sort) > "$tmp/all"
(cd "$a" && xargs -d '\n' wc -c < "$tmp/all") |
	awk '$2 != "total" { print $2 "\t" $1 }' | sort > "$tmp/wc"
(cd "$a" && xargs -d '\n' sha256sum < "$tmp/all") |
	awk '{ print $2 "\t" $1 }' | sort > "$tmp/sha"
join -t "$tab" "$tmp/wc" "$tmp/sha" > "$tmp/ref"
if [ "$(wc -l < "$tmp/ref")" -eq "$(wc -l < "$tmp/all")" ]; then :; else
	notok "could not size and digest the archive's files"
fi

# The raw files of every run of a site, one line each:
#   id <TAB> name <TAB> bytes <TAB> sha256 (or null) <TAB> page size <TAB> page cell
# from results.json and the run page's table (matched by name; '-' when
# the page has no row for it).  A page row with no file in results.json
# gives a line with bytes 'extra'.
cat > "$tmp/files.py" << 'EOF'
import html, json, os, re, sys
runs = os.path.join(sys.argv[1], 'runs')
row = re.compile(r'<tr id="f-[^"]*"><th scope="row"><a class="self" href="#f-[^"]*">'
                 r'([^<]*)</a></th><td class="num">([^<]*)</td><td class="(?:hash|txt)">([^<]*)</td></tr>')
for top, dirs, names in os.walk(runs):
    dirs.sort()
    if 'results.json' not in names:
        continue
    rid = os.path.relpath(top, runs)
    with open(os.path.join(top, 'results.json')) as f:
        files = json.load(f)['files']
    with open(os.path.join(top, 'index.html')) as f:
        page = f.read()
    i = page.find('<table id="tbl-files"')
    table = page[i:page.find('</table>', i)] if i >= 0 else ''
    cells = {}
    for m in row.finditer(table):
        cells[html.unescape(m.group(1))] = (m.group(2).replace(',', ''), html.unescape(m.group(3)))
    for x in files:
        sha, n = x.get('sha256', 'absent'), x.get('bytes')
        sha = 'null' if sha is None else sha if isinstance(sha, str) else 'bad:' + repr(sha)
        n = str(n) if isinstance(n, int) and not isinstance(n, bool) else 'bad:' + repr(n)
        size, cell = cells.pop(x['name'], ('-', '-'))
        print('\t'.join((rid, x['name'], n, sha, size, cell)))
    for name, (size, cell) in sorted(cells.items()):
        print('\t'.join((rid, name, 'extra', '-', size, cell)))
EOF

# check_files SITE MODE WHAT: MODE digest (each sha256 is sha256sum's) or
# null (each is null, the page cell "not computed").
check_files() {
	if ! python3 "$tmp/files.py" "$1" > "$tmp/list" 2> "$tmp/pyerr"; then
		notok "$3: results.json and pages parse"
		show "$tmp/pyerr"
		return
	fi
	cut -f 1,2 "$tmp/list" | tr '\t' / | sort > "$tmp/listed"
	if [ -s "$tmp/listed" ] && cmp -s "$tmp/listed" "$tmp/all"; then
		ok "$3: the files listed are exactly the archive's ($(wc -l < "$tmp/all" | tr -d ' ') files, $nruns runs)"
	else
		notok "$3: the files listed differ from the archive's"
		diff "$tmp/all" "$tmp/listed" > "$tmp/diff"
		show "$tmp/diff"
	fi
	awk -F "$tab" -v mode="$2" '
		NR == FNR { wc[$1] = $2; sha[$1] = $3; next }
		{
			p = $1 "/" $2
			if (!(p in wc)) next
			if ($3 != wc[p]) print "bytes " p ": " $3 ", wc -c " wc[p]
			want = mode == "digest" ? sha[p] : "null"
			if ($4 != want) print "sha256 " p ": " $4 ", want " want
			if ($5 != wc[p]) print "page-size " p ": " $5 ", wc -c " wc[p]
			want = mode == "digest" ? sha[p] : "not computed"
			if ($6 != want) print "page-cell " p ": " $6 ", want " want
		}' "$tmp/ref" "$tmp/list" > "$tmp/bad"
	n=$(wc -l < "$tmp/list" | tr -d ' ')
	for k in bytes sha256 page-size page-cell; do
		case $k in
		bytes) what='"bytes" equals wc -c' ;;
		sha256) [ "$2" = digest ] && what='"sha256" equals sha256sum' || what='"sha256" is null' ;;
		page-size) what='the page shows the size' ;;
		page-cell) [ "$2" = digest ] && what='the page shows the digest' ||
			what="the page says 'not computed'" ;;
		esac
		grep "^$k " "$tmp/bad" > "$tmp/bad.$k"
		if [ "$n" -gt 0 ] && [ ! -s "$tmp/bad.$k" ]; then
			ok "$3: $what for every file ($n)"
		elif [ "$n" -eq 0 ]; then
			notok "$3: $what: no file listed"
		else
			notok "$3: $what: $(wc -l < "$tmp/bad.$k" | tr -d ' ') of $n files wrong"
			show "$tmp/bad.$k"
		fi
	done
}
# stderr is exactly this one line
said() { # what line
	if [ "$(cat "$tmp/err")" = "$2" ]; then
		ok "$1: says \"$2\""
	else
		notok "$1: expected \"$2\""
		show "$tmp/err"
	fi
}
same_site() { # want got ok-text notok-text
	if diff -r -x .erg-cache "$1" "$2" > "$tmp/diff" 2>&1; then
		ok "$3"
	else
		notok "$4"
		show "$tmp/diff"
	fi
}
build() { # out [options]
	o=$1
	shift
	"$ERG" build --archive "$a" --out "$o" --templates "$ERG_SRC/templates" "$@" 2> "$tmp/err"
}
pages() { find "$1/runs" -name index.html | sort; }

start=$(date +%s)

# 1. digests
site=$tmp/site
if build "$site"; then
	ok "default build of $nruns runs"
else
	notok "default build"
	show "$tmp/err"
fi
check_files "$site" digest "default"
missing=
for want in 2023-11/plain/power.plist 2023-11/gz/power.plist.gz 2023-11/split/power.plist \
	2023-11/split/power.plist.1.gz; do
	grep -qxF "$want" "$tmp/listed" || missing="$missing $want"
done
if [ -z "$missing" ]; then
	ok "default: plain, gzipped and continuation (power.plist.1.gz) power files are listed"
else
	notok "default: power files not listed:$missing"
fi
if [ "$big" -eq 1 ]; then
	if grep -qxF m5/big/power.plist "$tmp/listed" && grep -qxF m5/biggz/power.plist.gz "$tmp/listed"; then
		ok "default: the big power files are listed"
	else
		notok "default: the big power files are not listed"
	fi
fi
cp "$tmp/list" "$tmp/list.default"
caveat=0
notc=0
for p in $(pages "$site"); do
	grep -q 'class="caveat"' "$p" && caveat=$((caveat + 1))
	grep -q 'not computed' "$p" && notc=$((notc + 1))
done
if [ "$caveat" -eq 0 ] && [ "$notc" -eq 0 ]; then
	ok "default: no run page has the --no-digest caveat or 'not computed'"
else
	notok "default: $caveat run pages have the caveat, $notc say 'not computed'"
fi

# 2. --no-digest
nd=$tmp/nodigest
if build "$nd" --no-digest; then
	ok "--no-digest build of $nruns runs"
else
	notok "--no-digest build"
	show "$tmp/err"
fi
check_files "$nd" null "--no-digest"
sentence='<p class="caveat">SHA-256 digests were not computed: this site was built with <code>erg build --no-digest</code>.'
n=0
with=0
for p in $(pages "$nd"); do
	n=$((n + 1))
	grep -qF "$sentence" "$p" && with=$((with + 1))
done
if [ "$n" -eq "$nruns" ] && [ "$with" -eq "$n" ]; then
	ok "--no-digest: every run page has the caveat ($n)"
else
	notok "--no-digest: $with of $n run pages have the caveat"
fi
# No digest of the default build anywhere in the --no-digest site.
cut -f 4 "$tmp/list.default" | sort -u > "$tmp/digests"
if [ -s "$tmp/digests" ] && ! grep -rqF -f "$tmp/digests" --exclude-dir=.erg-cache "$nd"; then
	ok "--no-digest: no file of the site holds a digest"
else
	notok "--no-digest: a digest appears in the site"
	grep -rlF -f "$tmp/digests" --exclude-dir=.erg-cache "$nd" > "$tmp/hits"
	show "$tmp/hits"
fi
# Everything else is as in the default build.
python3 - "$site" "$nd" > "$tmp/jdiff" 2>&1 << 'EOF'
import json, os, sys
a, b = sys.argv[1], sys.argv[2]
n = 0
for top, dirs, names in os.walk(os.path.join(a, 'runs')):
    if 'results.json' not in names:
        continue
    rel = os.path.relpath(os.path.join(top, 'results.json'), a)
    x = json.load(open(os.path.join(a, rel)))
    y = json.load(open(os.path.join(b, rel)))
    for f in x['files']:
        f['sha256'] = None
    n += 1
    if x != y:
        print(rel)
if n == 0:
    print('no results.json')
EOF
if [ ! -s "$tmp/jdiff" ]; then
	ok "--no-digest: results.json equals the default build's but for the digests"
else
	notok "--no-digest: results.json differs beyond the digests"
	show "$tmp/jdiff"
fi
diff -rq -x .erg-cache "$site" "$nd" 2>&1 |
	grep -v -E "^Files .*/runs/.*/(results\.json|index\.html) and .* differ$" > "$tmp/diff"
if [ ! -s "$tmp/diff" ]; then
	ok "--no-digest: no file but run pages and results.json differs from the default build"
else
	notok "--no-digest: other files differ from the default build"
	show "$tmp/diff"
fi

# 3. the build cache
c=$tmp/cached
build "$c"
build "$c" --no-digest
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "cache: --no-digest over a default site builds"
else
	notok "cache: --no-digest over a default site (status $rc)"
fi
said "cache: --no-digest over a default site reads every run" "erg: built $nruns runs into '$c'"
same_site "$nd" "$c" "cache: and equals a fresh --no-digest build" \
	"cache: --no-digest over a default site differs from a fresh --no-digest build"
check_files "$c" null "cache: --no-digest over a default site"
build "$c" --no-digest
said "cache: --no-digest again" "erg: '$c' is up to date ($nruns runs)"
# One run read again, the others reused from the --no-digest site.
touch "$a/2023-11/plain/notes.md"
build "$c" --no-digest
said "cache: --no-digest, one run touched" "erg: built $nruns runs into '$c' ($((nruns - 1)) unchanged)"
same_site "$nd" "$c" "cache: runs reused from a --no-digest site keep their nulls and caveat" \
	"cache: runs reused from a --no-digest site differ from a fresh --no-digest build"
build "$c"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "cache: a default build over a --no-digest site builds"
else
	notok "cache: a default build over a --no-digest site (status $rc)"
fi
said "cache: a default build over a --no-digest site reads every run" "erg: built $nruns runs into '$c'"
check_files "$c" digest "cache: default over a --no-digest site"
same_site "$site" "$c" "cache: and equals a fresh default build" \
	"cache: the digests restored, the site differs from a fresh default build"
build "$c"
said "cache: default again" "erg: '$c' is up to date ($nruns runs)"

# 4. erg check and erg diff read everything
if "$ERG" check --archive "$a" > "$tmp/out" 2> "$tmp/err" && [ ! -s "$tmp/err" ]; then
	ok "check: the archive is good (status 0, no diagnostic)"
else
	notok "check: the good archive fails"
	show "$tmp/err"
fi
bad=$tmp/broken
mkdir -p "$bad/2023-11"
cp -R "$a/2023-11/gz" "$bad/2023-11/crc"
cp -R "$a/2023-11/gz" "$bad/2023-11/cut"
# The CRC-32 in the gzip trailer: only reading to the end notices it.
python3 - "$bad/2023-11/crc/power.plist.gz" << 'EOF'
import sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
d[-8] ^= 0xff
open(p, 'wb').write(d)
EOF
f=$bad/2023-11/cut/power.plist.gz
head -c "$(($(wc -c < "$f") / 2))" "$f" > "$f.half" && mv "$f.half" "$f"
crc_re="^erg: $bad/2023-11/crc/power\\.plist\\.gz:@[0-9]+: error: corrupt gzip stream: incorrect data check\$"
cut_re="^erg: $bad/2023-11/cut/power\\.plist\\.gz:@[0-9]+: error: truncated gzip stream\$"
located() { # what
	if grep -Eq "$crc_re" "$tmp/err" && grep -Eq "$cut_re" "$tmp/err"; then
		ok "$1: located diagnostics for the bad CRC and the truncation"
	else
		notok "$1: expected located diagnostics for the bad CRC and the truncation"
		show "$tmp/err"
	fi
}
"$ERG" check --archive "$bad" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" -ne 0 ]; then
	ok "check: a broken gzip power file fails (status $rc)"
else
	notok "check: a broken gzip power file passes"
fi
located check
"$ERG" build --no-digest --archive "$bad" --out "$tmp/badsite" \
	--templates "$ERG_SRC/templates" 2> "$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] && [ ! -e "$tmp/badsite" ]; then
	ok "--no-digest: a broken gzip power file fails the build (status $rc, no site)"
else
	notok "--no-digest: a broken gzip power file (status $rc)"
fi
located "--no-digest build"
# check takes --no-digest (scripts pass build's options on) and does
# what it always does: the same located errors as without it.
"$ERG" check --archive "$bad" > /dev/null 2> "$tmp/err0"
"$ERG" check --no-digest --archive "$bad" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] && [ -s "$tmp/err" ] && cmp -s "$tmp/err0" "$tmp/err"; then
	ok "check: --no-digest is accepted and changes nothing (status $rc)"
else
	notok "check: --no-digest (status $rc)"
	show "$tmp/err"
fi
if "$ERG" diff --archive "$a" 2023-11/plain 2023-11/gz > "$tmp/out" 2> "$tmp/err" &&
	grep -q 'A and B are the same data' "$tmp/out"; then
	ok "diff: a run and its gzipped copy are the same data"
else
	notok "diff: a run against its gzipped copy"
	show "$tmp/err"
fi
"$ERG" diff --archive "$bad" "$a/2023-11/plain" 2023-11/crc > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] && grep -Eq "$crc_re" "$tmp/err"; then
	ok "diff: a bad CRC fails with a located diagnostic (status $rc)"
else
	notok "diff: a bad CRC (status $rc)"
	show "$tmp/err"
fi
echo "# $(($(date +%s) - start)) s for the builds and checks"
exit 0
