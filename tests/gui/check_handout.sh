#!/bin/sh
# The lesson handout (`attnviz snapshot --lesson FILE --handout out.pdf`) checked with
# poppler's tools: one page per slide (pdfinfo), every slide's title, its note's first
# words and the lesson language's labels in the text (pdftotext; Chinese included), and
# every page renders to a picture that is not blank (pdftoppm). Then the first page as a
# PNG about 1024 pixels high into OUT/first_page, for the golden comparison.
# Usage: check_handout.sh ATTNVIZ LESSON.json OUT_DIR NOTE_LABEL
set -eu
attnviz=$1 lesson=$2 out=$3 label=$4
rm -rf "$out" && mkdir -p "$out/first_page" "$out/pages"
fail() { echo "check_handout: $*" >&2; exit 1; }
"$attnviz" snapshot --lesson "$lesson" --handout "$out/handout.pdf" || fail "snapshot --handout exited $?"
[ -s "$out/handout.pdf" ] || fail "no PDF written"
slides=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["slides"]))' "$lesson")
pages=$(pdfinfo "$out/handout.pdf" | sed -n 's/^Pages: *//p')
[ "$pages" = "$slides" ] || fail "$pages pages for $slides slides"
pdftotext -enc UTF-8 "$out/handout.pdf" "$out/handout.txt"
# pdftotext breaks lines where the PDF does: compare without white space.
tr -d ' \n\t' < "$out/handout.txt" > "$out/flat.txt"
python3 - "$lesson" "$out/flat.txt" "$label" <<'PY' || fail "text missing from the PDF (see above)"
import json, sys
lesson = json.load(open(sys.argv[1]))
flat = open(sys.argv[2], encoding="utf-8").read()
missing = []
wanted = [sys.argv[3]] + [s["title"] for s in lesson["slides"]] + [s["note"][:12] for s in lesson["slides"] if s.get("note")]
for want in wanted:
    if "".join(want.split()) not in flat:
        missing.append(want)
for m in missing:
    print("missing:", m, file=sys.stderr)
sys.exit(1 if missing else 0)
PY
pdftoppm -r 30 -png "$out/handout.pdf" "$out/pages/page"
[ "$(ls "$out/pages" | wc -l)" = "$slides" ] || fail "pdftoppm rendered $(ls "$out/pages" | wc -l) pages of $slides"
for page in "$out"/pages/*.png; do
    colours=$(convert "$page" -format '%k' info:)
    [ "$colours" -gt 50 ] || fail "$page has $colours colours: blank?"
done
pdftoppm -f 1 -l 1 -scale-to 1024 -png "$out/handout.pdf" "$out/first_page/handout"
echo "check_handout: $slides pages, text and pictures ok"
