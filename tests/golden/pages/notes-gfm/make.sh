# Notes holding a GFM table.  cmark (CommonMark, no extensions) renders it
# as a paragraph of text; when the notes move to cmark-gfm (issue 15) this
# golden changes, deliberately, to a table.
set -eu
"$MKSMALL" "$1" > /dev/null
cat > "$1/notes.md" << 'NOTES'
# Notes

Throughput by target, as measured:

| target | req/s | note |
| --- | ---: | --- |
| alpha | 2,000 | `a` and `b` |
| beta | 1,900 | pipes \| escaped |

After the table.
NOTES
