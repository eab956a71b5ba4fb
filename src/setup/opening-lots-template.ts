/**
 * The opening-lots template `init` writes (the file format: src/lots/opening-lots-file.ts): for
 * each BTC or asset wallet, its balance at the first event the service holds for it — its first
 * ledger event that moves the balance, read with one request (effective time ascending). When
 * that event is a deposit (coins bought elsewhere and moved in), the row is the basis of that
 * deposit (`ref` deposited:<id>) with the deposit's units and time and the cost `unknown`: the
 * lots engine keeps such a lot and flags it (lots.basis_unknown) until the accountant writes what
 * the coins cost. A wallet whose history starts with a receive needs no row (the journal values a
 * receive at its price); one with no history yet has nothing to open.
 */
import { ledgerPages } from '../api/endpoints.js';
import type { Credential } from '../config/load.js';
import type { WalletRow } from '../model/rows.js';
import { formatBase } from '../money/format.js';
import { normalizeLedgerEvent } from '../normalize/ledger.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { setupClient } from './setup-client.js';

export const OPENING_LOTS_HEADER = 'wallet_id,currency,acquired_at,units_base,cost,ref';

/** Events read per wallet to find the first that moves the balance (holds come first on a send). */
const FIRST_EVENTS = 20;

export interface OpeningLine {
  wallet: WalletRow;
  currency: string;
  /** a CSV row, or null when the wallet needs none */
  row: string | null;
  /** why, for the person: `a deposit of 25.2 BTC on 2026-07-26` */
  note: string;
  /** when its first balance movement was (null: none yet) */
  firstAt: string | null;
}

export interface OpeningInput {
  baseUrl: string;
  credential: Credential;
  organizationId: string;
  wallets: readonly WalletRow[];
  booksCurrency: string;
  scrubber: SecretScrubber;
}

/** The wallets the lots engine keeps lots for: a BTC or asset balance. */
export function lotWallets(wallets: readonly WalletRow[], booksCurrency: string): WalletRow[] {
  return wallets.filter((w) => w.balances.some((b) => b.currency !== booksCurrency.toLowerCase() && (b.currency === 'btc' || b.currency.startsWith('asset:'))));
}

export async function openingLines(input: OpeningInput): Promise<OpeningLine[]> {
  const client = setupClient(input);
  const lines: OpeningLine[] = [];
  try {
    for (const wallet of lotWallets(input.wallets, input.booksCurrency)) {
      const currency = wallet.balances.find((b) => b.currency === 'btc' || b.currency.startsWith('asset:'))?.currency ?? 'btc';
      const pages = ledgerPages(client, { organizationId: input.organizationId, walletId: wallet.wallet_id, limit: FIRST_EVENTS });
      const first = await pages.next();
      await pages.return(undefined);
      const events = first.done === true ? [] : first.value.items;
      const context = { organization_id: input.organizationId, environment_id: wallet.environment_id, wallet_id: wallet.wallet_id };
      const moving = events.map((e) => normalizeLedgerEvent(e, context)).find((row) => row.balance_effect_base !== 0n && row.currency === currency);
      lines.push(lineOf(wallet, currency, moving ?? null, events.length));
    }
  } finally {
    await client.close();
  }
  return lines;
}

function lineOf(wallet: WalletRow, currency: string, event: ReturnType<typeof normalizeLedgerEvent> | null, seen: number): OpeningLine {
  if (event === null) return { wallet, currency, row: null, firstAt: null, note: seen === 0 ? 'no movement yet: nothing to open' : `none of its first ${seen} events moves its balance: add its opening row by hand if it held coins` };
  const day = event.effective_time.slice(0, 10);
  if (event.entry_type !== 'deposited') return { wallet, currency, row: null, firstAt: event.effective_time, note: `starts with a ${event.entry_type} on ${day}: valued by the journal at its price, no row needed` };
  const units = event.amount_base ?? 0n;
  const amount = currency === 'btc' ? `${trimZeros(formatBase(units, 11))} BTC` : `${units} base units of ${currency.slice(0, 14)}…`;
  return {
    wallet,
    currency,
    row: [wallet.wallet_id, currency, event.effective_time, units.toString(), 'unknown', `deposited:${event.entry_id}`].join(','),
    firstAt: event.effective_time,
    note: `opened by a deposit of ${amount} on ${day}: write what those coins cost in the cost column${currency === 'btc' ? '' : ' (its prices come from a price file you add under journal.prices: the price cache fetches BTC only)'}`,
  };
}

function trimZeros(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/** The file's text: the header, one row per wallet that needs one. */
export function openingLotsText(lines: readonly OpeningLine[]): string {
  return [OPENING_LOTS_HEADER, ...lines.flatMap((l) => (l.row === null ? [] : [l.row]))].join('\n') + '\n';
}
