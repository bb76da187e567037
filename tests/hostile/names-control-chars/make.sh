#!/bin/sh
# Control characters in names that reach the pages but no file name
# (JSON escapes, so the files are valid JSON): ESC sequences, BEL, DEL, C1
# NEL and CSI, LINE SEPARATOR, a lone combining mark, in the title, the
# machine, the full target names, an idle window's kind and the notes.
# The run builds; the pages must hold none of the controls (html.h drops
# them) and stay valid UTF-8.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's/"Small hand-made session"/"Title \\u001b[31mred\\u001b[0m \\u0007bell \\u007f del \\u0085nel \\u2028ls \\u0301"/;
	s/"chip": "Test chip"/"chip": "chip\\u009b2J\\u0008"/' "$r/meta.json"
all_edit "$r/timeline.jsonl" 's/"target":"test\/alpha"/"target":"te\\u001b[2Jst\/al\\u0001pha"/g;
	s/"kind":"cooldown"/"kind":"cool\\u0085down\\u001b"/g'
printf '# Notes \033[31m\n\nbell \007, del \177, nel \302\205.\n' > "$r/notes.md"
