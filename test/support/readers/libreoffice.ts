/**
 * LibreOffice headless and poppler as readers that did not write the workbook: print it to PDF
 * with its own page setup (soffice), read the PDF's words with their boxes (pdftotext -bbox), and
 * let LibreOffice recalculate a workbook's formulas (a private profile with "recalculate on load:
 * always", so the values it saves are its own). Suites skip visibly where a tool is missing, and
 * fail instead under PAYEXPORT_REQUIRE_READERS=1, as for the other readers (.ci/run installs
 * LibreOffice and poppler-utils).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonForXlsx } from './readers.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** Why the PDF tools cannot run here, or null; under PAYEXPORT_REQUIRE_READERS=1 their absence throws. */
export function pdfToolsMissing(): string | null {
  const missing = ['soffice', 'pdftotext'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length === 0) return null;
  const reason = `no ${missing.join(', ')} (apt-get install libreoffice-calc-nogui poppler-utils)`;
  if (process.env['PAYEXPORT_REQUIRE_READERS'] === '1') throw new Error(`PAYEXPORT_REQUIRE_READERS=1 but ${reason}`);
  return reason;
}

const RECALCULATE_ALWAYS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;

/**
 * `soffice --convert-to <format>` of `file` into `outDir` with a profile of its own under `profile`;
 * returns the converted file's path. `recalculate`: the profile recalculates every formula on load.
 */
export function convertWithLibreOffice(file: string, format: 'pdf' | 'xlsx', outDir: string, profile: string, recalculate = false): string {
  if (recalculate) {
    mkdirSync(join(profile, 'user'), { recursive: true });
    writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), RECALCULATE_ALWAYS);
  }
  mkdirSync(outDir, { recursive: true });
  execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', format, '--outdir', outDir, file], { stdio: 'ignore', timeout: 900_000 });
  return join(outDir, basename(file).replace(/\.xlsx$/, `.${format}`));
}

/**
 * Several workbooks to PDF in one LibreOffice start (each start costs seconds of CPU): their
 * names must differ, since they land in one folder. Returns the PDFs in the order given.
 */
export function convertAllToPdf(files: readonly string[], outDir: string, profile: string): string[] {
  mkdirSync(outDir, { recursive: true });
  execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, ...files], { stdio: 'ignore', timeout: 900_000 });
  return files.map((file) => join(outDir, basename(file).replace(/\.xlsx$/, '.pdf')));
}

export interface PdfWord {
  text: string;
  /** the word box's height in points: the font size times the font's ascent + descent */
  height: number;
}

/** Every page's words with their boxes, as poppler reads them. */
export function pdfPages(pdf: string): PdfWord[][] {
  const xml = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  return xml
    .split('<page ')
    .slice(1)
    .map((page) => [...page.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({ text: decode(m[3] as string), height: Number(m[2]) - Number(m[1]) })));
}

/** The PDF's text as pdftotext lays it out (physical layout: a row's cells on one line). */
export function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
}

function decode(text: string): string {
  return text.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'");
}

/** A cell of a sheet read three ways: the value written with the file, its formula, the recalculated value. */
export interface RecalculatedCell {
  v: string | number | boolean | null;
  f: string | null;
  r: string | number | boolean | null;
}

function python(): string {
  const p = pythonForXlsx();
  if (p === null) throw new Error('no python3 with openpyxl');
  return p;
}

/** A copy of `sheets` of the workbook with their formulas and no cached results (openpyxl writes none). */
export function stripResults(source: string, target: string, sheets: readonly string[]): void {
  execFileSync(python(), [join(HERE, 'recalculated.py'), '--strip', source, target, ...sheets], { stdio: 'ignore' });
}

/**
 * A copy of a workbook set to another paper (`1`: Letter, `9`: A4), its XML rewritten in place
 * (paper_copy.py); with `rows`, each sheet cut to its first rows, which print at the size all its
 * pages would (one page across scales by the columns, not by the rows below).
 */
export function paperCopy(source: string, target: string, paperSize: number, rows?: number): string {
  execFileSync(python(), [join(HERE, 'paper_copy.py'), source, target, String(paperSize), ...(rows === undefined ? [] : [String(rows)])], { stdio: 'ignore' });
  return target;
}

/** The sheets of `source` cell by cell beside the same cells of `recalculated`. */
export function sideBySide(source: string, recalculated: string, sheets: readonly string[]): Record<string, RecalculatedCell[][]> {
  const out = execFileSync(python(), [join(HERE, 'recalculated.py'), source, recalculated, ...sheets], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  return (JSON.parse(out) as { sheets: Record<string, RecalculatedCell[][]> }).sheets;
}

/**
 * The box height of 8 pt text as this renderer prints it: a one-cell workbook at 8 pt and 100 %
 * printed the same way (the box is the font's ascent + descent, so it depends on the font
 * LibreOffice substitutes for Calibri).
 */
export function eightPointReference(dir: string): string {
  const book = join(dir, 'eight-point.xlsx');
  execFileSync(python(), ['-c', `import openpyxl\nfrom openpyxl.styles import Font\nwb = openpyxl.Workbook()\nws = wb.active\nws['A1'] = 'Eight point reference'\nws['A1'].font = Font(name='Calibri', size=8)\nws.page_setup.scale = 100\nwb.save(${JSON.stringify(book)})`]);
  return book;
}

/** The 8 pt box height read off the reference's PDF (`eightPointReference`, printed). */
export function eightPointHeight(referencePdf: string): number {
  const height = pdfPages(referencePdf).flat().find((w) => w.text === 'Eight')?.height;
  if (height === undefined) throw new Error('the 8 pt reference did not print');
  return height;
}

/**
 * A copy of the workbook that prints one sheet alone, on one page, for a picture of all of it:
 * LibreOffice's PNG export draws the first sheet's first page only. Rewritten with Python's zipfile:
 * the workbook lists that sheet alone (and no print areas), its fitToHeight 1 and its manual page
 * breaks gone; `withoutDrawing` also drops its drawing (its charts), for a picture of the same cells
 * without them. Nothing else changes.
 */
export function sheetOnOnePage(source: string, target: string, sheet: string, withoutDrawing = false): void {
  const script = [
    'import re, sys, zipfile',
    'src = zipfile.ZipFile(sys.argv[1])',
    'name, bare = sys.argv[3], sys.argv[4] == "1"',
    'book = src.read("xl/workbook.xml").decode("utf-8")',
    'rels = src.read("xl/_rels/workbook.xml.rels").decode("utf-8")',
    'sheets = re.findall(r\'<sheet [^>]*?name="([^"]*)"[^>]*?r:id="([^"]*)"[^>]*/>\', book)',
    'rid = dict(sheets)[name]',
    'part = "xl/" + re.search(r\'<Relationship [^>]*?Id="\' + rid + r\'"[^>]*?Target="/?(?:xl/)?([^"]*)"\', rels).group(1)',
    // LibreOffice's PNG export draws the first sheet, hidden or not: the others leave the workbook's list, and the print areas that name them by index
    'book = re.sub(r"<sheet [^>]*/>", lambda m: m.group(0) if \'name="\' + name + \'"\' in m.group(0) else "", book)',
    'book = re.sub(r"<definedNames>.*?</definedNames>", "", book, flags=re.S)',
    'book = re.sub(r\'(activeTab|firstSheet)="\\d+"\', r\'\\1="0"\', book)',
    'dst = zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED)',
    'for item in src.infolist():',
    '    data = src.read(item.filename)',
    '    if item.filename == "xl/workbook.xml":',
    '        data = book.encode("utf-8")',
    '    elif item.filename == part:',
    '        text = data.decode("utf-8")',
    '        text = re.sub(r\'fitToHeight="\\d+"\', \'fitToHeight="1"\', text)',
    '        text = re.sub(r"<rowBreaks.*?</rowBreaks>", "", text, flags=re.S)',
    '        if bare: text = re.sub(r"<drawing [^>]*/>", "", text)',
    '        data = text.encode("utf-8")',
    '    dst.writestr(item, data)',
    'dst.close()',
  ].join('\n');
  execFileSync(python(), ['-c', script, source, target, sheet, withoutDrawing ? '1' : '0']);
}
