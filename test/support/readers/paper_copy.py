#!/usr/bin/env python3
"""Writes a copy of a workbook set to another paper size, for a test to print it on that paper:

  paper_copy.py IN OUT PAPER_SIZE [ROWS]

Each worksheet's <pageSetup paperSize="..."> is rewritten in the file's own XML (Python's zipfile,
every other part copied byte for byte, so the copy is the workbook as written, not as a library
would re-save it). With ROWS, each sheet keeps its first ROWS rows only: a sheet set to one page
across (fitToWidth 1, fitToHeight 0) scales by its columns' widths and the paper's, never by how
many rows follow, so the first pages print at the size every page would, in a fraction of the
time. (The full workbook is printed on its own paper by the same test: a row that widened the
print would show there.)
"""
import re
import sys
import zipfile

from sheet_rows import cut_rows

SHEET = re.compile(r"^xl/worksheets/sheet\d+\.xml$")


def rewrite(xml, paper, rows):
    xml = re.sub(rb'(<pageSetup\b[^>]*?\bpaperSize=")\d+(")', rb"\g<1>" + paper.encode() + rb"\g<2>", xml)
    if rows:
        xml = cut_rows(xml, rows)
    return xml


def main():
    source, target, paper = sys.argv[1:4]
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if SHEET.match(item.filename):
                data = rewrite(data, paper, rows)
            zout.writestr(item, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
