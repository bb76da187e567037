#!/bin/sh
# Run ids (directory names) with spaces, quotes, '<', '&', '#', '?', '%'
# and dots: a directory name cannot hold '/', and ".." is not a name,
# but "x..." and "a..b" are (names starting with '.' are skipped: hidden).
# The runs build; check.sh looks for each page and for the escaped and
# percent-encoded forms of the ids.
. "$HOSTILE/lib.sh"
small "$1/it's \"odd\" <b> & x"
small "$1/x..."
small "$1/a..b/#frag?q=%41"
