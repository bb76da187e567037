#!/bin/sh
# A run directory whose name holds an escape character.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
mv "$r" "$1/2023/run$(printf "\033")[31mred"
