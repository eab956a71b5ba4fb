// Renders report workbooks to PNG the way a person would see them printed: LibreOffice headless
// converts each workbook to PDF with the sheets' own page setup (fit to width, landscape, the
// Overview on one page), then pdftoppm rasterises the first pages. Page 1 is always the Overview.
//
//   node scripts/render-workbooks.mjs [--pages N] [--dpi D] --out DIR REPORT_FOLDER_OR_XLSX...
//
// Needs `soffice` (apt-get install libreoffice-calc-nogui) and `pdftoppm` (poppler-utils); exits 69
// (unavailable) with the reason when either is missing. Writes DIR/<name>.pdf and DIR/<name>-<page>.png.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

const args = process.argv.slice(2);
let pages = 2;
let dpi = 110;
let out = null;
const inputs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--pages') pages = Number(args[++i]);
  else if (args[i] === '--dpi') dpi = Number(args[++i]);
  else if (args[i] === '--out') out = resolve(args[++i]);
  else inputs.push(resolve(args[i]));
}
if (out === null || inputs.length === 0 || !(pages >= 1) || !(dpi >= 30)) {
  console.error('usage: node scripts/render-workbooks.mjs [--pages N] [--dpi D] --out DIR REPORT_FOLDER_OR_XLSX...');
  process.exit(64);
}
for (const tool of ['soffice', 'pdftoppm']) {
  if (spawnSync(tool, ['-v'], { stdio: 'ignore' }).error) {
    console.error(`${tool} is not installed: apt-get install -y --no-install-recommends libreoffice-calc-nogui poppler-utils`);
    process.exit(69);
  }
}
mkdirSync(out, { recursive: true });
// a private LibreOffice profile: no clash with a running instance, no state left in $HOME
const profile = mkdtempSync(join(tmpdir(), 'payexport-render-'));
try {
  for (const input of inputs) {
    const xlsx = statSync(input).isDirectory() ? join(input, 'report.xlsx') : input;
    if (!existsSync(xlsx)) throw new Error(`no workbook at ${xlsx}`);
    // name the output after the report folder: month-end-2026-10, export-2026-11-01_2026-11-21
    const folder = dirname(xlsx);
    const name = `${basename(dirname(folder))}-${basename(folder)}`;
    const work = mkdtempSync(join(profile, 'pdf-'));
    execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${join(profile, 'lo')}`, '--convert-to', 'pdf', '--outdir', work, xlsx], { stdio: 'ignore', timeout: 600_000 });
    const pdf = join(out, `${name}.pdf`);
    renameSync(join(work, readdirSync(work).find((f) => f.endsWith('.pdf'))), pdf);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', String(pages), pdf, join(out, name)], { stdio: 'ignore' });
    const pngs = readdirSync(out).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')).sort();
    console.log(`${xlsx} → ${pdf} (${pngs.map((f) => join(out, f)).join(', ')})`);
  }
} finally {
  rmSync(profile, { recursive: true, force: true });
}
