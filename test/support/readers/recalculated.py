#!/usr/bin/env python3
"""Reads a workbook's sheets three ways with openpyxl and prints them side by side as JSON, to check
that formulas recompute to the values written with them:

  --strip IN OUT SHEET...   writes OUT: IN's named sheets only, formulas kept, no cached results
                            (openpyxl writes none), for a spreadsheet to recalculate;
  IN RECALCULATED SHEET...  prints {"sheets": {name: [[{"v", "f", "r"}, ...], ...]}}: per cell the
                            value written with the file (v), its formula or null (f), and the
                            value the recalculated copy holds (r).
"""
import json
import sys
import warnings

import openpyxl

# Our workbooks carry an Excel 2010 extension list (exceljs's x14 conditional formats) that openpyxl
# reads past with a UserWarning per sheet; the warning says nothing about our files, and repeated
# over every read it would drown a real one. Only that message is silenced.
warnings.filterwarnings("ignore", message="Unknown extension is not supported", category=UserWarning)


def strip(source, target, names):
    # read-only: the named sheets are parsed, the others (the month's tables, thousands of rows)
    # never; the copy keeps each cell at its place, formulas as their text, no styles and no results
    workbook = openpyxl.load_workbook(source, read_only=True)
    copy = openpyxl.Workbook(write_only=True)
    for name in workbook.sheetnames:
        if name not in names:
            continue
        sheet = copy.create_sheet(name)
        for row in workbook[name].iter_rows():
            sheet.append([cell.value for cell in row])
    copy.save(target)


def plain(value):
    return value if value is None or isinstance(value, (int, float, str, bool)) else str(value)


def side_by_side(source, recalculated, names):
    # read-only: only the named sheets are parsed
    cached = openpyxl.load_workbook(source, data_only=True, read_only=True)
    formulas = openpyxl.load_workbook(source, data_only=False, read_only=True)
    computed = openpyxl.load_workbook(recalculated, data_only=True, read_only=True)
    out = {}
    for name in names:
        rows = []
        for cells, texts, results in zip(cached[name].iter_rows(), formulas[name].iter_rows(), computed[name].iter_rows()):
            rows.append([
                {"v": plain(c.value), "f": t.value if getattr(t, "data_type", None) == "f" else None, "r": plain(r.value)}
                for c, t, r in zip(cells, texts, results)
            ])
        out[name] = rows
    # json.dumps: the C encoder (json.dump streams through the pure-Python one)
    sys.stdout.write(json.dumps({"sheets": out}, ensure_ascii=False))


def main():
    if sys.argv[1] == "--strip":
        strip(sys.argv[2], sys.argv[3], set(sys.argv[4:]))
    else:
        side_by_side(sys.argv[1], sys.argv[2], sys.argv[3:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
