/**
 * manifest.json: the run's proof of what it wrote (docs/contracts.md#the-manifest,
 * docs/reliability.md#audit-evidence): parameters without secrets, the window, counts, control totals per
 * currency, check results and every file with its rows, bytes and sha256. Bigints are strings.
 * Written last; `verify(dir)` checks a folder against it.
 *
 * Two runs over the same input give manifests that differ only in `run_id`, `started_at` and
 * `finished_at` (and the files they describe are byte-identical).
 */
import type { ChainLink } from '../audit/chain-link.js';
import type { ManifestSignatureNote } from '../audit/manifest-signature.js';
import type { CheckOutcome, CheckResult, ControlTotals } from '../model/results.js';
import type { Window } from '../model/window.js';
import type { CloseStatus } from './close-status.js';
import type { CsvOptions } from './csv-table-writer.js';
import type { ManifestScope } from './output-scope.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_SCHEMA_VERSION = 1;

export interface ManifestSheet {
  name: string;
  /** rows in the sheet, header included */
  rows: number;
}

export interface ManifestFile {
  path: string;
  /** data rows (header excluded); for report.xlsx the data rows of all table sheets */
  rows: number;
  bytes: number;
  sha256: string;
  /** report.xlsx only */
  sheets?: ManifestSheet[];
}

/** The manifest as JSON sees it: bigints already strings. */
export type JsonControlTotals = Record<string, Record<string, string | number>>;

export interface Manifest {
  schema_version: number;
  run_id: string;
  command: string;
  tool: { name: string; version: string };
  job: string;
  period: string;
  /** folder name actually written: the period, or `<period>.amended-N` */
  folder: string;
  amendment: number | null;
  window: Window;
  /** the organization, environments and wallets these files cover (src/sinks/output-scope.ts) */
  scope: ManifestScope;
  started_at: string;
  finished_at: string;
  parameters: Record<string, unknown>;
  csv: { encoding: 'utf-8'; bom: boolean; eol: 'crlf' | 'lf'; delimiter: ','; quote: '"' } | null;
  xlsx: { max_rows_per_sheet: number; control_chars_replaced: number; texts_truncated: number; amounts_as_text: number; display_amounts_rounded: number } | null;
  counts: Record<string, number>;
  /** does it tie: errors stop it (exit 65), warnings and info do not (src/reconcile/tie-out.ts) */
  tie_out: { ties: boolean; errors: number; warnings: number; info: number; headline: string; not_run: string[] };
  /** whether the period is closed, in the Overview's words (src/sinks/close-status.ts) */
  close: CloseStatus;
  control_totals: JsonControlTotals;
  /** each check with its outcome: passed, failed or not_run (src/reconcile/check-outcome.ts) */
  checks: Array<CheckResult & { outcome: CheckOutcome }>;
  files: ManifestFile[];
  /** the key that signed this manifest (manifest.json.sig beside it); absent: not signed */
  signature?: ManifestSignatureNote;
  /** a close or an amendment: its place in the job's chain of records (close-chain.ts) */
  chain?: ChainLink;
}

export function csvManifest(options: CsvOptions): NonNullable<Manifest['csv']> {
  return { encoding: 'utf-8', bom: options.bom, eol: options.eol, delimiter: ',', quote: '"' };
}

export function controlTotalsJson(totals: ControlTotals): JsonControlTotals {
  const out: JsonControlTotals = {};
  for (const currency of Object.keys(totals).sort()) {
    const t = totals[currency];
    if (t === undefined) continue;
    const row: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(t)) row[key] = typeof value === 'bigint' ? value.toString() : (value as string | number);
    out[currency] = row;
  }
  return out;
}

/** Stable JSON text (2-space indent, trailing newline); bigints anywhere become strings. */
export function manifestJson(manifest: Manifest): string {
  return `${JSON.stringify(manifest, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`;
}

const SECRET_KEY = /(api[-_]?key|token|secret|password|passwd|credential|authorization|cookie|private[-_]?key)/i;
const SECRET_VALUE = /^(vltg_|bearer\s)/i;

/**
 * Parameters as the manifest and Overview may show them: keys that name a secret and values that
 * look like one are replaced, and passwords in URLs are dropped. A second line of defence; callers
 * should pass no secrets in the first place (SEC-01).
 */
export function redactParameters(value: unknown, key = ''): unknown {
  if (key !== '' && SECRET_KEY.test(key)) return '[redacted]';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    if (SECRET_VALUE.test(value)) return '[redacted]';
    return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+):[^@/\s]*@/i, '$1:[redacted]@');
  }
  if (Array.isArray(value)) return value.map((v) => redactParameters(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactParameters(v, k);
    return out;
  }
  return value;
}
