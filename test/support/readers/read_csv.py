#!/usr/bin/env python3
"""Reads a CSV file with Python's standard csv module (an independent reader: it shares no code
with the writer) and prints it as JSON: {"records": N, "header": [...], "rows": [[...], ...]}.

The file is opened with newline='' as the csv module's documentation requires, and decoded as
utf-8-sig so a leading byte-order mark is not part of the first header. The dialect is RFC 4180
(excel): comma, double quote, quotes doubled inside a field. `strict` makes a malformed quote an
error instead of a guess.
"""
import csv
import json
import sys


def main() -> int:
    path = sys.argv[1]
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle, dialect="excel", strict=True)
        records = list(reader)
    header = records[0] if records else []
    rows = records[1:]
    # json.dumps: the C encoder (json.dump streams through the pure-Python one)
    sys.stdout.write(json.dumps({"records": len(rows), "header": header, "rows": rows}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
