# Notes holding a GFM table: cmark-gfm's table extension renders it as a
# <table> with the right column right-aligned and the escaped pipe kept as
# text inside its cell.
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
