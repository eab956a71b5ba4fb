#!/bin/sh
# Renders a report workbook to PNG pages with LibreOffice headless, to look at a report (its sheets,
# formats, the Bills and Fee rates sheets) the way a spreadsheet application lays it out.
#
#   scripts/render-workbook.sh <report.xlsx> <out-dir> [dpi]
#
# Needs `soffice` (LibreOffice) and `pdftoppm` (poppler-utils). Writes <out-dir>/report.pdf and
# <out-dir>/page-N.png (one per printed page); prints the PNG paths. LibreOffice runs with a profile
# of its own under <out-dir>, so it neither needs nor touches the user's.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 <report.xlsx> <out-dir> [dpi]" >&2; exit 64; }
book=$1
out=$2
dpi=${3:-60}
command -v soffice >/dev/null 2>&1 || { echo "soffice (LibreOffice) not found" >&2; exit 69; }
command -v pdftoppm >/dev/null 2>&1 || { echo "pdftoppm (poppler-utils) not found" >&2; exit 69; }
mkdir -p "$out"
name=$(basename "$book" .xlsx)
# soffice's launcher says "failed to launch javaldx" on every start where Java is not installed
# (the nogui packages do not pull it in, and no filter used here needs it): its words are kept
# and shown only when the conversion fails, so a caller's log holds nothing on success.
if ! soffice -env:UserInstallation="file://$(cd "$out" && pwd)/.lo-profile" --headless --convert-to pdf --outdir "$out" "$book" >"$out/.soffice.log" 2>&1; then
  cat "$out/.soffice.log" >&2
  exit 70
fi
pdftoppm -png -r "$dpi" "$out/$name.pdf" "$out/page"
ls "$out"/page*.png
