/**
 * The opening-lots file: the basis of what a wallet held before the snapshot's first event (the
 * Rev. Proc. 2024-28 allocation a user made when per-wallet tracking began), and of deposits that
 * name no payment. CSV with a header:
 *
 *   wallet_id,currency,acquired_at,units_base,cost[,ref]
 *
 * `units_base` in base units (msats for btc), `cost` a plain decimal in the books' currency with at
 * most its minor-unit decimals, or `unknown` (the lot is kept, flagged lots.basis_unknown). `ref`
 * (`deposited:<entry id>`) makes the row the basis of that one deposit instead of an opening lot.
 * A bad line stops the run (exit 78, naming the line): half an opening position would misstate
 * every gain after it.
 */
import { readFileSync } from 'node:fs';
import { toUtcInstant } from '../model/instant.js';
import { parseDecimalToBase } from '../money/format.js';
import { configError } from '../util/errors.js';
import type { OpeningLot } from './model.js';

const HEADER = ['wallet_id', 'currency', 'acquired_at', 'units_base', 'cost'];

export function parseOpeningLots(text: string, shownPath: string, minorUnits: number): OpeningLot[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((s) => s.trim());
  const withRef = header.length === 6 && header[5] === 'ref';
  if (HEADER.some((h, i) => header[i] !== h) || (header.length !== 5 && !withRef)) {
    throw configError('opening_lots_invalid', `opening-lots file '${shownPath}' line 1: expected the header "${HEADER.join(',')}[,ref]"`);
  }
  const out: OpeningLot[] = [];
  lines.slice(1).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const bad = (why: string): never => {
      throw configError('opening_lots_invalid', `opening-lots file '${shownPath}' line ${i + 2}: ${why}`);
    };
    const cells = line.split(',').map((s) => s.trim());
    if (cells.length !== header.length) bad(`expected ${header.length} fields, got ${cells.length}`);
    const [walletId, currency, acquired, units, cost, ref] = cells as [string, string, string, string, string, string | undefined];
    if (!/^[0-9a-fA-F-]{36}$/.test(walletId)) bad('wallet_id is not a UUID');
    if (!/^(btc|asset:[0-9a-f]+)$/.test(currency)) bad(`currency '${currency.slice(0, 20)}' is not btc or asset:<hex>`);
    const acquiredAt = toUtcInstant(/^\d{4}-\d{2}-\d{2}$/.test(acquired) ? `${acquired}T00:00:00Z` : acquired);
    if (acquiredAt === null) bad('acquired_at is not a date or RFC 3339 time');
    if (!/^[1-9][0-9]*$/.test(units)) bad('units_base is not a positive integer');
    let costBase: bigint | null = null;
    if (cost !== 'unknown') {
      try {
        costBase = parseDecimalToBase(cost, minorUnits);
      } catch {
        bad(`cost '${cost.slice(0, 20)}' is not a plain decimal with at most ${minorUnits} decimals (or "unknown")`);
      }
      if ((costBase as bigint) < 0n) bad('cost is negative');
    }
    if (ref !== undefined && ref !== '' && !/^deposited:\S+$/.test(ref)) bad('ref must be deposited:<entry id> or empty');
    out.push({ walletId: walletId.toLowerCase(), currency, acquiredAt: acquiredAt as string, units: BigInt(units), cost: costBase, ref: ref === undefined || ref === '' ? null : ref });
  });
  return out;
}

export function loadOpeningLots(path: string, shownPath: string, minorUnits: number): OpeningLot[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw configError('opening_lots_unreadable', `cannot read opening-lots file '${shownPath}': ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseOpeningLots(text, shownPath, minorUnits);
}
