#!/bin/sh
# Script and markup in every name erg prints: the title, the machine, the
# caveats, framework (target) names, route names and the notes.  The run
# builds (these are just odd names); check.sh proves only escaped forms
# reach the pages, the charts and the Markdown export.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's{"Small hand-made session"}{"<script>alert(1)</script> title"};
	s{"chip": "Test chip"}{"chip": "\\"><svg onload=alert(2)>"};
	s{"id": "test-machine"}{"id": "javascript:alert(3)"};
	s{"os": "TestOS 1"}{"os": "TestOS 1", "caveats": ["<script>alert(4)</script>"]}' "$r/meta.json"
all_edit "$r/timeline.jsonl" 's{"framework":"alpha"}{"framework":"<script>alert(5)</script>"}g;
	s{"framework":"beta"}{"framework":"javascript:alert(6)"}g;
	s{"target":"test/alpha"}{"target":"\\"><svg onload=alert(7)>"}g;
	s{"route":"b"}{"route":"\\"><svg onload=alert(8)>"}g;
	s{"route":"a"}{"route":"<img src=x onerror=alert(9)>[x](javascript:alert(15))"}g'
cat > "$r/notes.md" <<'MD'
# Notes <script>alert(10)</script>

[click](javascript:alert(11)) <img src=x onerror=alert(12)>
<svg onload=alert(13)>

![pic](javascript:alert(14)) [ok](https://example.com/)
MD
