"""A worksheet's XML cut to its first rows, for the readers that hand a smaller workbook to
openpyxl or LibreOffice (read_xlsx.py, paper_copy.py): rows are matched by their `r` attribute,
whatever else a row carries, and everything outside the rows stays as written."""
import re

ROW = re.compile(rb'<row\b[^>]*?\br="(\d+)"[^>]*?(?:/>|>.*?</row>)', re.S)


def cut_rows(xml, keep):
    """`xml` with every row numbered above `keep` left out."""
    return ROW.sub(lambda m: m.group(0) if int(m.group(1)) <= keep else b"", xml)
