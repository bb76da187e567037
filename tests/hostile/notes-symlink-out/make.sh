#!/bin/sh
# notes.md is a symbolic link to /etc/passwd.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/notes.md" && ln -s /etc/passwd "$r/notes.md"
