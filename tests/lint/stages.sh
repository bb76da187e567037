#!/bin/sh
# tests/lint/stages.sh - the layout of gen/ is the architecture: data flows
# base -> model -> ingest -> analyze -> render -> site -> cmd, and a file
# may include only headers of its own stage or of earlier ones, each named
# with its stage ("base/buf.h").  Prints one line per offending include
# (file:line: error: ...) and exits 1 if there is any.
# Usage: sh tests/lint/stages.sh [GEN_DIR]   (default gen)
gen=${1:-gen}
set -- "$gen"/*/*.c "$gen"/*/*.h
[ -f "$1" ] || { echo "$gen: error: no sources" >&2; exit 1; }
awk '
function rank(s) {
	if (s == "base") return 0
	if (s == "model") return 1
	if (s == "ingest") return 2
	if (s == "analyze") return 3
	if (s == "render") return 4
	if (s == "site") return 5
	if (s == "cmd") return 6
	return 99
}
FNR == 1 {
	n = split(FILENAME, p, "/")
	self = p[n - 1]
	if (rank(self) == 99) {
		printf "%s: error: \"%s\" is not a stage of gen/\n", FILENAME, self
		bad = 1
	}
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	h = $0
	sub(/^[^"]*"/, "", h)
	sub(/".*$/, "", h)
	if (split(h, q, "/") != 2) {
		printf "%s:%d: error: \"%s\" does not name its stage\n", FILENAME, FNR, h
		bad = 1
	} else if (rank(q[1]) == 99) {
		printf "%s:%d: error: \"%s\": \"%s\" is not a stage\n", FILENAME, FNR, h, q[1]
		bad = 1
	} else if (rank(q[1]) > rank(self)) {
		printf "%s:%d: error: includes \"%s\" from a later stage (%s after %s)\n",
		       FILENAME, FNR, h, q[1], self
		bad = 1
	}
}
END { exit bad }
' "$@"
