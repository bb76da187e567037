# An energy session: the small hand-made one (tests/tools/mksmall.c), as is.
set -eu
"$MKSMALL" "$1" > /dev/null
