# check-lib.sh - helpers for tests/hostile/<case>/check.sh (sourced).
# OUT is the built site.  Each helper prints one "ok - ..." or
# "not ok - ..." line.

# Every page: well-formed UTF-8 (iconv refuses anything else) and no C0
# control other than TAB, LF, CR, no DEL, no C1 control (html.h drops them).
pages_clean() {
	bad=$(cd "$OUT" && find . \( -name '*.html' -o -name '*.svg' \) -type f | sort |
		while IFS= read -r f; do
			if ! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1; then
				printf " '%s'(utf-8)" "$f"
			elif ! perl -ne 'exit 1 if /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]/' "$f"; then
				printf " '%s'(control)" "$f"
			fi
		done)
	[ -z "$bad" ] && echo "ok - pages are clean UTF-8 without controls" ||
		echo "not ok - pages with bad characters:$bad"
}

# absent TEXT [GLOB]: no file of the site matching GLOB (default *.html)
# holds TEXT (fixed string, case-insensitive).
absent() {
	hits=$(cd "$OUT" && find . -name "${2:-*.html}" -type f -exec grep -ilF -- "$1" {} + 2>/dev/null | sort | tr '\n' ' ')
	[ -z "$hits" ] && echo "ok - no '$1' in ${2:-*.html}" ||
		echo "not ok - '$1' in $hits"
}

# present TEXT FILE: the site's FILE holds TEXT (fixed string).
present() {
	if grep -qF -- "$1" "$OUT/$2" 2>/dev/null; then
		echo "ok - '$1' in $2"
	else
		echo "not ok - '$1' not in $2"
	fi
}

# absent_re PERL-REGEX [GLOB]: no file matching GLOB has a line matching.
absent_re() {
	hits=$(cd "$OUT" && find . -name "${2:-*.html}" -type f | sort |
		while IFS= read -r f; do
			RE=$1 perl -ne 'exit 1 if /$ENV{RE}/' "$f" || printf " '%s'" "$f"
		done)
	[ -z "$hits" ] && echo "ok - nothing matches /$1/ in ${2:-*.html}" ||
		echo "not ok - /$1/ matches in$hits"
}

# jcheck DESC PERL: the Perl expression PERL, with $r the run's results.json
# decoded (JSON::PP, in Perl's core), is true.  RUN is the run's directory in
# the site (default runs/2023/run).
jcheck() {
	if perl -MJSON::PP -e '
		local $/; open(my $f, "<", $ARGV[0]) or exit 2;
		my $r = JSON::PP->new->decode(<$f>); exit(eval($ARGV[1]) ? 0 : 1)' \
		"$OUT/${RUN:-runs/2023/run}/results.json" "$2"; then
		echo "ok - $1"
	else
		echo "not ok - $1"
	fi
}
