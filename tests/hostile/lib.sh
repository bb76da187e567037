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
