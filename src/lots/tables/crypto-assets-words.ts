/**
 * The words of the Crypto assets note: dates as a controller writes them, where a price comes
 * from and whether it may be stale, the sentence that says why a stablecoin at par shows cents of
 * unrealized gain, the nature of additions and dispositions, the changes of method, how long a
 * restriction runs, and the definitions at the sheet's foot.
 */
import type { BuildContext } from '../../journal/build-movement.js';
import type { PricePoint } from '../../journal/price-file.js';
import { formatBase, groupThousands } from '../../money/format.js';
import type { CryptoNote, NoteAsset } from '../../model/crypto-note.js';
import type { Window } from '../../model/window.js';
import { isCustody } from '../custody.js';
import { startOf, type MethodPeriod } from '../method.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-10-31` → `31 October 2026` */
export function dayWords(day: string): string {
  const [y, m, d] = day.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1] ?? m} ${y}`;
}

/** A books-currency amount as a person writes it: `-0.04 USD`. */
export function moneyWords(v: bigint, minorUnits: number, booksCurrency: string): string {
  return `${groupThousands(formatBase(v, minorUnits))} ${booksCurrency}`;
}

/** Where a price comes from, in words: the user's price file (its name) or the fetched cache (its source and interval). */
export function priceSource(price: PricePoint, currency: string, ctx: BuildContext): string {
  if (price.source === 'price_file') {
    const file = ctx.config.prices.find((p) => p.currency === currency)?.file;
    return file === undefined ? 'the price file' : `price file ${file.split(/[\\/]/).pop() ?? file}`;
  }
  const [, source = '', interval = ''] = price.source.split(':');
  return `${source} (${interval} prices, the price cache)`;
}

/**
 * Per asset whose every lot cost the closing price per unit (a stablecoin at par) and whose
 * unrealized gain is not zero: the sentence that says it is rounding. The cost basis adds up the
 * journal's value of each movement, each rounded to the cent (and a partial disposal leaves the
 * part of a cent it did not take in its lot, docs/lots.md "Exactness"), while the fair value rounds
 * the units held once; so cents remain that no price moved.
 */
export function roundingWords(assets: readonly NoteAsset[], books: string, minorUnits: number): string[] {
  return assets.flatMap((a) => {
    const { fairValue, costBasis, units } = a.total;
    if (!a.atClosingPrice || a.price === null || fairValue === null || costBasis === null || fairValue === costBasis) return [];
    const gain = groupThousands(formatBase(fairValue - costBasis, minorUnits));
    return [
      `${a.ticker}: every lot held cost ${groupThousands(a.price.text)} ${books} per ${a.ticker}, the closing price, so its unrealized gain of ${gain} ${books} is rounding alone, not a change in value: the cost basis adds up the journal's value of each movement, each rounded to the cent (a partial disposal leaves the part of a cent it did not take in its lot), while the fair value rounds the ${groupThousands(formatBase(units, a.unitScale))} ${a.ticker} held once.`,
    ];
  });
}

/** Per asset valued with a price older than the configured age at the period's end: what the warning lots.price_stale says. */
export function staleWords(assets: readonly NoteAsset[], maxAgeSeconds: number, lastDay: string): string[] {
  return assets.flatMap((a) => {
    if (!a.priceStale || a.price === null) return [];
    return [`${a.ticker}: the closing price may be stale — the fair value at ${dayWords(lastDay)} uses ${groupThousands(a.price.text)} per ${a.ticker} from ${a.price.source}, a price of ${a.price.at.slice(0, 19).replace('T', ' ')} UTC, older than ${ageWords(maxAgeSeconds)} at the period's end: a warning on the Exceptions sheet, until a price of the period's end is added.`];
  });
}

/** `1 day`, `36 hours`, `90 minutes` */
export function ageWords(seconds: number): string {
  const unit = seconds % 86_400 === 0 ? [86_400, 'day'] as const : seconds % 3_600 === 0 ? [3_600, 'hour'] as const : [60, 'minute'] as const;
  const n = Math.round(seconds / unit[0]);
  return `${n} ${unit[1]}${n === 1 ? '' : 's'}`;
}

/** ASC 350-60-50-4(a): what the additions are. */
export function additionsWords(): string {
  return "Additions are crypto assets received: payments from customers into the service's wallets (receives), swaps into a wallet, and deposits from outside the company (their basis from the opening-lots file), each at the journal's value when received.";
}

/** ASC 350-60-50-4(a): what the dispositions are. */
export function dispositionsWords(): string {
  return 'Dispositions are crypto assets given up: payments sent (sends) with their network and processing fees, withdrawals that are disposals (repayments of the line of credit), and the fees of transfers between the company\'s wallets, each at its proceeds (the journal\'s value when it left).';
}

/** Every change of cost-basis method that took effect in the period, per wallet: `Merchant payouts: fifo → hifo on 15 October 2026`. */
export function methodChanges(input: { methods: ReadonlyMap<string, readonly MethodPeriod[]>; wallets: ReadonlyArray<{ wallet_id: string; name: string }>; custody: { name(holder: string): string | null } }, window: Window, assets: readonly NoteAsset[]): string[] {
  const out: string[] = [];
  for (const [walletId, periods] of input.methods) {
    const sorted = [...periods].sort((a, b) => (startOf(a.from) < startOf(b.from) ? -1 : 1));
    sorted.forEach((p, i) => {
      const at = startOf(p.from);
      if (at < window.from || at >= window.to) return;
      const name = isCustody(walletId) ? (input.custody.name(walletId) ?? walletId) : (input.wallets.find((w) => w.wallet_id.toLowerCase() === walletId)?.name ?? walletId);
      const before = sorted[i - 1]?.method ?? 'fifo (default)';
      out.push(`${name}: ${before} → ${p.method} from ${dayWords(p.from.slice(0, 10))}${p.from.length > 10 ? ` (${p.from})` : ''}; disposals before that date keep the method they were made under.`);
    });
  }
  return assets.length === 0 ? [] : out.sort();
}

/** How long a restriction still runs after the period's last day (both YYYY-MM-DD). */
export function remainingWords(until: string | undefined, lastDay: string): string {
  if (until === undefined) return 'no fixed end';
  const days = Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${lastDay}T00:00:00Z`)) / 86_400_000);
  return days <= 0 ? `until ${dayWords(until)} (ended by the period's end)` : `until ${dayWords(until)} (${days} day${days === 1 ? '' : 's'} after the period's end)`;
}

/** [term, what it means] for the Definitions block. */
export function definitions(note: Pick<CryptoNote, 'assets' | 'booksCurrency'>): Array<[string, string]> {
  const books = note.booksCurrency;
  const units = note.assets.map((a) => (a.currency === 'btc' ? 'BTC with 11 decimals (1 BTC = 100,000,000,000 msats, the base unit of the CSV files)' : `${a.ticker} with ${a.unitScale} decimals`)).join('; ');
  return [
    ['units', `What the lots held at the period's end add up to (sheet Lots), in each asset's own unit: ${units}.`],
    ['location', "Where the units are: the service's wallets, or the company's own custody wallets (cold storage) — crypto assets the company holds wherever they are, all measured at fair value."],
    ['cost basis', `The cost of the lots held: the journal's ${books} value of each acquisition, kept across transfers between the company's wallets, less the cost relieved by disposals (docs/lots.md).`],
    ['fair value', 'The units held at the closing price, rounded once to the cent: the journal\'s asset accounts plus the fair-value adjustment (check lots.fair_value_tieout).'],
    ['unrealized gain', 'Fair value − cost basis of the lots held.'],
    ['additions, dispositions', "The journal's value of what came in and what went out in the period; a disposal is measured at its proceeds, a fee at the value of the units it took."],
    ['transfers', "Lots moved between the company's own wallets: they keep their acquisition date and cost. To or from the company's own custody they leave one location and arrive at the other (0 in the total); between two of the service's wallets the line is the value received − the value sent (0 unless the two legs were valued at different prices)."],
    ['remeasurement gains, losses', 'What brings the carrying value to the fair value at the closing price (the journal\'s remeasurement entries), on the gains line or the losses line asset by asset (ASC 350-60-50-3).'],
    ['realized gains, losses', 'Proceeds − cost basis of the lots relieved by the period\'s disposals (sheet Lot reliefs), the lines with a gain and those with a loss added apart; cumulative: every relief line since the first event, net.'],
    ...note.assets.map((a): [string, string] => [a.ticker, assetWords(a)]),
  ];
}

function assetWords(a: NoteAsset): string {
  if (a.currency === 'btc') return 'Bitcoin; currency id btc on the CSV files, base unit msat.';
  return `${a.name} (the service's asset list${a.network === null ? '' : `, network ${a.network}`}, ${a.unitScale} decimals); currency id ${a.currency} on the CSV files.`;
}
