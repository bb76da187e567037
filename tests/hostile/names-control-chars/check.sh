#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
absent "$(printf '\033')" '*.md'
present 'Title' index.html
