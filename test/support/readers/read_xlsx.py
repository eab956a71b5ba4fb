#!/usr/bin/env python3
"""Reads an XLSX workbook with openpyxl (an independent reader: it shares no code with exceljs)
and prints what a test needs to know as JSON:

{"sheets": [{"name", "max_row", "max_column", "freeze_panes", "auto_filter",
             "orientation", "fit_to_width", "fit_to_height", "fit_to_page", "scale", "paper_size",
             "margins": {"left", "right", "top", "bottom"} (inches), "print_area", "print_title_rows",
             "column_widths" (one per column up to max_column; null = the default), "row_breaks",
             "images", "charts",
             "chart_details": [{"type", "title", "anchor": {"col", "row"}, "grouping", "direction",
                                "series": [{"name", "categories", "values"}]}],
             "rows": [[{"v": value, "t": "n"|"s"|"b"|"d"|"f"|null, "fmt": number_format}, ...]]}]}

Cells are included only with --cells (a 100k-row sheet would be large), and then at most
--max-rows rows per sheet (default: all).

openpyxl parses every cell of every sheet when it loads a workbook whole, and only a whole load
holds page setup, freeze panes and filters: seconds for a month's workbook, most of them for cells
no test asked for. So a sheet whose cells are not asked for (or only its first --max-rows rows) is
handed to openpyxl with those rows left out of its XML (Python's zipfile and re, in memory); its
max_row and max_column are then read off the rows and cells its XML holds (the last row with a
cell, the rightmost cell), as openpyxl counts them on a whole load. Values: numbers as JSON numbers, text as strings, dates
as ISO strings, formulas as their text with t = "f" — or, with --values, the result cached with
the formula.
"""
import argparse
import datetime
import io
import json
import re
import sys
import warnings
import zipfile
import xml.etree.ElementTree as ET

import openpyxl

from sheet_rows import cut_rows

# Our workbooks carry an Excel 2010 extension list (exceljs's x14 conditional formats) that openpyxl
# reads past with a UserWarning per sheet; the warning says nothing about our files, and repeated
# over every read it would drown a real one. Only that message is silenced.
warnings.filterwarnings("ignore", message="Unknown extension is not supported", category=UserWarning)


def cell_json(cell):
    value = cell.value
    kind = cell.data_type  # n numeric, s string, b bool, d date, f formula, e error
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        value = value.isoformat()
    if value is None:
        kind = None
    return {"v": value, "t": kind, "fmt": cell.number_format}


def ref_of(data):
    """The formula a series part refers to (strRef or numRef), or None."""
    if data is None:
        return None
    for name in ("strRef", "numRef"):
        ref = getattr(data, name, None)
        if ref is not None:
            return ref.f
    return None


def title_of(chart):
    try:
        return "".join(run.t for p in chart.title.tx.rich.p for run in (p.r or []))
    except AttributeError:
        return None


def chart_json(chart):
    anchor = getattr(chart.anchor, "_from", None)
    return {
        "type": chart.tagname,
        "title": title_of(chart),
        "anchor": None if anchor is None else {"col": anchor.col, "row": anchor.row},
        "grouping": getattr(chart, "grouping", None),
        "direction": getattr(chart, "type", None),
        "series": [{"name": ref_of(s.tx), "categories": ref_of(s.cat), "values": ref_of(s.val)} for s in chart.series],
    }


def column_widths(sheet, max_column):
    """Each column's width up to max_column, as the file sets it (a <col> range covers several)."""
    widths = [None] * max_column
    for dim in sheet.column_dimensions.values():
        if dim.width is None or dim.min is None:
            continue
        for index in range(dim.min, min(dim.max, max_column) + 1):
            widths[index - 1] = dim.width
    return widths


SHEET_DATA = re.compile(rb"<sheetData\b[^>]*?(?:/>|>(.*?)</sheetData>)", re.S)
CELL_REF = re.compile(rb'<c\b[^>]*?\br="([A-Z]+)(\d+)"')
PACKAGE_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def column_index(letters):
    index = 0
    for letter in letters:
        index = index * 26 + letter - 64
    return index


def sheet_parts(archive):
    """Each sheet's name and the zip member that holds its XML, from the workbook and its relationships."""
    rels = ET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target") for rel in rels}
    book = ET.fromstring(archive.read("xl/workbook.xml"))
    parts = {}
    for sheet in book.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}sheet"):
        target = targets[sheet.get(PACKAGE_REL)]
        parts[sheet.get("name")] = target.lstrip("/") if target.startswith("/") else "xl/" + target
    return parts


def trimmed(path, keep_rows):
    """The workbook with each sheet of `keep_rows` (name -> rows to keep, 0 for none) cut to those
    rows, in memory, and each such sheet's (max_row, max_column) as its whole XML holds them."""
    extents = {}
    out = io.BytesIO()
    with zipfile.ZipFile(path) as archive, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:
        parts = {part: name for name, part in sheet_parts(archive).items() if name in keep_rows}
        for item in archive.infolist():
            data = archive.read(item.filename)
            name = parts.get(item.filename)
            if name is not None:
                found = SHEET_DATA.search(data)
                rows = found.group(1) or b"" if found else b""
                cells = CELL_REF.findall(rows)
                extents[name] = (max((int(r) for _, r in cells), default=1), max((column_index(c) for c, _ in cells), default=1))
                kept = cut_rows(rows, keep_rows[name])
                data = data[: found.start()] + b"<sheetData>" + kept + b"</sheetData>" + data[found.end():] if found else data
            copy.writestr(item, data)
    out.seek(0)
    return out, extents


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--cells", action="store_true")
    parser.add_argument("--max-rows", type=int, default=0)
    parser.add_argument("--values", action="store_true", help="a formula cell's cached result instead of its formula")
    # the cells of these sheets only (comma-separated names): a test that reads two sheets of a
    # 10k-row workbook need not have every payment row turned into JSON and parsed back
    parser.add_argument("--sheets", default="")
    args = parser.parse_args()
    asked = [n for n in args.sheets.split(",") if n] if args.sheets else None
    with zipfile.ZipFile(args.path) as archive:
        names = list(sheet_parts(archive))
    # rows each sheet's cells are read to: all (None), the first --max-rows, or none
    keep_rows = {}
    for name in names:
        if not args.cells or (asked is not None and name not in asked):
            keep_rows[name] = 0
        elif args.max_rows:
            keep_rows[name] = args.max_rows
    source, extents = trimmed(args.path, keep_rows) if keep_rows else (args.path, {})
    # not read_only: page setup, freeze panes and the autofilter are only loaded in full mode
    workbook = openpyxl.load_workbook(source, read_only=False, data_only=args.values)
    sheets = []
    for sheet in workbook.worksheets:
        props = sheet.sheet_properties
        fit_to_page = bool(props.pageSetUpPr.fitToPage) if props.pageSetUpPr is not None else False
        max_row, max_column = extents.get(sheet.title, (sheet.max_row, sheet.max_column))
        entry = {
            "name": sheet.title,
            "max_row": max_row,
            "max_column": max_column,
            "freeze_panes": sheet.freeze_panes,
            "auto_filter": sheet.auto_filter.ref,
            "orientation": sheet.page_setup.orientation,
            "fit_to_width": sheet.page_setup.fitToWidth,
            "fit_to_height": sheet.page_setup.fitToHeight,
            "fit_to_page": fit_to_page,
            "scale": sheet.page_setup.scale,
            "paper_size": sheet.page_setup.paperSize,
            "margins": {side: getattr(sheet.page_margins, side) for side in ("left", "right", "top", "bottom")},
            "print_area": sheet.print_area,
            "print_title_rows": sheet.print_title_rows,
            "column_widths": column_widths(sheet, max_column),
            "row_breaks": [b.id for b in sheet.row_breaks.brk],
            "images": len(getattr(sheet, "_images", [])),
            "charts": len(getattr(sheet, "_charts", [])),
            "chart_details": [chart_json(chart) for chart in getattr(sheet, "_charts", [])],
        }
        if args.cells and (asked is None or sheet.title in asked):
            rows = []
            # the whole extent, rows without cells included, as a whole load iterates it
            for index, row in enumerate(sheet.iter_rows(max_row=max_row, max_col=max_column)):
                if args.max_rows and index >= args.max_rows:
                    break
                rows.append([cell_json(cell) for cell in row])
            entry["rows"] = rows
        sheets.append(entry)
    # json.dumps, not json.dump: dump streams through the pure-Python encoder (a write per token,
    # seconds for a 10k-row workbook); dumps uses the C one, for the same text
    sys.stdout.write(json.dumps({"sheets": sheets}, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
