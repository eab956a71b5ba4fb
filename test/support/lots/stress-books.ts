/**
 * Books for a simulator dataset other than the demo's (the `stress` profile by default): a journal
 * mapping every wallet the simulator serves to an asset account of its own, price files from the
 * first ledger event on, and an opening-lots file giving every deposit a basis. What the
 * first-close suites need to run the subledger over a dataset it was not tuned on: legacy records
 * and sends whose ledger entry carries no fee breakdown, swaps, amounts above 2^53.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalConfig } from '../../../src/config/journal-schema.js';
import type { LotsConfig } from '../../../src/config/lots-schema.js';
import { calendarDateIn } from '../../../src/model/period.js';
import type { SimHandle } from '../../../src/sim/index.js';

/** One ledger event of a wallet as the wire shows it (the simulator's ground truth). */
export type WireLedgerEvent = Record<string, unknown> & { type: string; effective_time: string };

/** Every ledger event of a wallet, as the simulator serves it (amounts, breakdowns, ids). */
export function wireLedger(sim: SimHandle, walletId: string): WireLedgerEvent[] {
  const w = sim.dataset.walletIndexOf(walletId);
  if (w === null) throw new RangeError(`unknown wallet ${walletId}`);
  return [...sim.dataset.ledgers.refs(w, 'effective_time')].map((ref) => sim.dataset.renderLedgerEntry(w, ref) as WireLedgerEvent);
}

/** The months (YYYY-MM in `tz`) from the dataset's first ledger event to `last`: the chain of closes a first close of `last` must equal. */
export function monthsThrough(sim: SimHandle, last: string, tz: string): string[] {
  const first = sim.wallets.map((w) => wireLedger(sim, w.id)[0]?.effective_time).filter((t): t is string => t !== undefined).sort()[0];
  if (first === undefined) return [last];
  const d = calendarDateIn(new Date(first.replace(/(\.\d{3})\d*Z$/, '$1Z')), tz);
  const months: string[] = [];
  for (let i = d.year * 12 + d.month - 1; ; i++) {
    const label = `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    if (label > last) return months;
    months.push(label);
  }
}

const account = (ledger: string, xero: string): { ledger: string; xero: string } => ({ ledger, xero });

/**
 * The journal and lots sections for `sim`, their files written under `dir`: BTC at a price that
 * moves every 12 hours from July 2026, the asset at 1.00, each deposit acquired 15 March 2024 at
 * 40,000 per BTC (its units × that price) or 1.00 per asset unit.
 */
export function stressBooks(sim: SimHandle, dir: string): { journal: JournalConfig; lots: LotsConfig } {
  const accounts: Record<string, { ledger: string; xero: string }> = {
    sales: account('Income:Sales', '4000'),
    payables: account('Liabilities:Clearing', '2190'),
    transfers: account('Assets:Transfers', '1295'),
    fees_network: account('Expenses:Fees:Network', '6910'),
    fees_processing: account('Expenses:Fees:Processing', '6920'),
    credit_line: account('Liabilities:CreditLine', '2300'),
    rounding: account('Expenses:Rounding', '6990'),
    fv_adjustment: account('Assets:Crypto:FairValueAdjustment', '1299'),
    fv_gain_loss: account('Income:Crypto:FairValue', '4910'),
    cold_vault: account('Assets:Crypto:ColdVault', '1290'),
  };
  const wallets: Record<string, string> = {};
  sim.wallets.forEach((w, i) => {
    const key = `wallet_${i + 1}`;
    accounts[key] = account(`Assets:Voltage:Wallet${i + 1}`, String(1300 + i));
    wallets[w.id] = key;
  });
  const btc = join(dir, 'btc-usd.csv');
  const rows = ['timestamp,price'];
  for (let t = Date.parse('2026-07-01T00:00:00Z'), i = 0; t <= Date.parse('2026-12-31T12:00:00Z'); t += 12 * 3_600_000, i++) {
    // a deterministic walk between about 80,000 and 110,000
    const cents = 9_500_000 + Math.round(1_500_000 * Math.sin(i / 9)) + ((i * 7_919) % 50_000);
    rows.push(`${new Date(t).toISOString().replace('.000Z', 'Z')},${(cents / 100).toFixed(2)}`);
  }
  writeFileSync(btc, rows.join('\n') + '\n');
  const assets = [...new Set(sim.wallets.map((w) => w.currency).filter((c) => c.startsWith('asset:')))];
  const prices: JournalConfig['prices'] = [{ currency: 'btc', file: btc, maxStalenessSeconds: 172_800 }];
  for (const [i, currency] of assets.entries()) {
    const file = join(dir, `asset-${i}.csv`);
    writeFileSync(file, 'timestamp,price\n2026-07-01T00:00:00Z,1.00\n');
    prices.push({ currency, file, maxStalenessSeconds: 31_622_400 });
  }
  const openings = ['wallet_id,currency,acquired_at,units_base,cost,ref'];
  for (const w of sim.wallets) {
    if (w.currency === 'usd') continue;
    for (const e of wireLedger(sim, w.id)) {
      if (e.type !== 'deposited') continue;
      const units = BigInt(String((e['amount'] as { amount: unknown }).amount));
      // BTC: msats × 40,000 USD per 10^11 msats, in cents; an asset: 1.00 per display unit (6 decimals)
      const cents = w.currency === 'btc' ? (units * 4_000_000n) / 100_000_000_000n : units / 10_000n;
      openings.push(`${w.id},${w.currency},2024-03-15T12:00:00Z,${units},${cents / 100n}.${String(cents % 100n).padStart(2, '0')},deposited:${String(e['deposit_id'])}`);
    }
  }
  const openingLots = join(dir, 'opening-lots.csv');
  writeFileSync(openingLots, openings.join('\n') + '\n');
  return { journal: journalOf(accounts, wallets, prices), lots: { wallets: {}, openingLots, ...custodyOf(sim) } };
}

/**
 * Withdrawals and deposits classified (docs/lots.md "Withdrawals and own custody"): the first BTC
 * wallet with withdrawals sends them to the company's cold storage, and the first later deposit
 * into a BTC wallet that the cold storage can cover comes back from it; the last wallet with
 * withdrawals is left unclassified (a warning, booked as disposals); the others are disposals.
 */
function custodyOf(sim: SimHandle): Pick<LotsConfig, 'custody' | 'withdrawals' | 'deposits'> {
  const btc = sim.wallets.filter((w) => w.currency !== 'usd');
  const withdrawing = btc.filter((w) => wireLedger(sim, w.id).some((e) => e.type === 'withdrawn'));
  const [cold, ...others] = withdrawing;
  if (cold === undefined) return { custody: {}, withdrawals: [], deposits: [] };
  const amount = (e: WireLedgerEvent): bigint => BigInt(String((e['amount'] as { amount: unknown }).amount));
  const sent = wireLedger(sim, cold.id).filter((e) => e.type === 'withdrawn');
  let held = 0n;
  let back: WireLedgerEvent | undefined;
  const deposits = btc.filter((w) => w.currency === cold.currency).flatMap((w) => wireLedger(sim, w.id).filter((e) => e.type === 'deposited')).sort((a, b) => (a.effective_time < b.effective_time ? -1 : 1));
  for (const d of deposits) {
    held = sent.filter((e) => e.effective_time < d.effective_time).reduce((a, e) => a + amount(e), 0n);
    if (held > 0n && amount(d) <= held) {
      back = d;
      break;
    }
  }
  return {
    custody: { 'cold-vault': { name: 'Cold vault', account: 'cold_vault' } },
    withdrawals: [{ wallet: cold.id, treatment: 'own_custody', custody: 'cold-vault' }, ...others.slice(0, -1).map((w) => ({ wallet: w.id, treatment: 'disposal' as const }))],
    deposits: back === undefined ? [] : [{ entry: `deposited:${String(back['deposit_id'])}`, treatment: 'own_custody', custody: 'cold-vault' }],
  };
}

function journalOf(accounts: Record<string, { ledger: string; xero: string }>, wallets: Record<string, string>, prices: JournalConfig['prices']): JournalConfig {
  return {
    booksCurrency: 'USD',
    minorUnits: 2,
    entryMode: 'per-payment',
    rounding: 'half_even',
    roundingStrategy: 'allocate',
    formats: ['csv', 'beancount'],
    numberPrefix: 'PX-',
    xeroTaxRate: 'Tax Exempt',
    accounts,
    wallets,
    counter: { send: { standard: 'payables' }, receive: { standard: 'sales' } },
    transfer: 'transfers',
    fees: { network: 'fees_network', processing: 'fees_processing' },
    balanceMovements: 'credit_line',
    roundingAccount: 'rounding',
    fairValue: { enabled: true, adjustment: 'fv_adjustment', gainLoss: 'fv_gain_loss' },
    rules: [],
    prices,
  } as JournalConfig;
}
