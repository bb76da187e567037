#!/bin/sh
# A load file of no format erg can tell: the message names the override.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
echo "hello" > "$r/bombardier/r1-s1-alpha-a.json"
