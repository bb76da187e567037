#!/bin/sh
# An archive with folders but no run: the build replaced the previous
# site with an empty one.  Now an error; the previous site stays.
mkdir -p "$1/2023/notes" "$1/2024"
echo 'nothing here yet' > "$1/2023/notes/README"
