/**
 * The words of the Crypto assets note: dates as a controller writes them, the sentence that says
 * why a stablecoin at par shows cents of unrealized gain, and the definitions at the sheet's foot
 * (the asset list's names for the ids the CSV files use).
 */
import { formatBase, groupThousands } from '../../money/format.js';
import type { CryptoAssetsNote, NoteAsset } from '../crypto-assets-note.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-10-31` → `31 October 2026` */
export function dayWords(day: string): string {
  const [y, m, d] = day.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1] ?? m} ${y}`;
}

/** A books-currency amount as a person writes it: `-0.04 USD`. */
export function moneyWords(v: bigint, note: CryptoAssetsNote): string {
  return `${groupThousands(formatBase(v, note.minorUnits))} ${note.booksCurrency}`;
}

/**
 * Per asset whose every lot cost the closing price per unit (a stablecoin at par) and whose
 * unrealized gain is not zero: the sentence that says it is rounding. The cost basis adds up the
 * journal's value of each movement, each rounded to the cent (and a partial disposal leaves the
 * part of a cent it did not take in its lot, docs/lots.md "Exactness"), while the fair value rounds
 * the units held once; so cents remain that no price moved.
 */
export function roundingWords(note: CryptoAssetsNote): string[] {
  return note.assets
    .filter((a) => a.atClosingPrice && a.unrealizedGain !== null && a.unrealizedGain !== 0n && a.price !== null)
    .map(
      (a) =>
        `${a.ticker}: every lot held cost ${groupThousands(a.price?.text ?? '')} ${note.booksCurrency} per ${a.ticker}, the closing price, so its unrealized gain of ${moneyWords(a.unrealizedGain as bigint, note)} is rounding alone, not a change in value: the cost basis adds up the journal's value of each movement, each rounded to the cent (a partial disposal leaves the part of a cent it did not take in its lot), while the fair value rounds the ${groupThousands(formatBase(a.units, a.unitScale))} ${a.ticker} held once.`,
    );
}

/** [term, what it means] for the Definitions block. */
export function definitions(note: CryptoAssetsNote): [string, string][] {
  const books = note.booksCurrency;
  const units = note.assets.map((a) => (a.currency === 'btc' ? 'BTC with 11 decimals (1 BTC = 100,000,000,000 msats, the base unit of the CSV files)' : `${a.ticker} with ${a.unitScale} decimals`)).join('; ');
  return [
    ['units', `What the lots held at the period's end add up to (sheet Lots), in each asset's own unit: ${units}.`],
    ['cost basis', `The cost of the lots held: the journal's ${books} value of each acquisition, kept across transfers between the company's wallets, less the cost relieved by disposals (docs/lots.md).`],
    ['fair value', `The units held at the closing price, rounded once to the cent: the journal's wallet accounts plus the fair-value adjustment (check lots.fair_value_tieout).`],
    ['unrealized gain', 'Fair value − cost basis of the lots held.'],
    ['additions, dispositions', "The journal's value of what came in and what went out in the period; a disposal is measured at its proceeds, a fee at the value of the units it took."],
    ['transfers', "Lots moved between the company's own wallets: they keep their acquisition date and cost; the line is the value received − the value sent (0 unless the two legs were valued at different prices)."],
    ['remeasurement', 'The gain or loss that brings the carrying value to the fair value at the closing price (the journal’s remeasurement entries).'],
    ['realized gain', 'Proceeds − cost basis of the lots relieved by disposals in the period (sheet Lot reliefs); cumulative: every relief line since the first event.'],
    ...note.assets.map((a): [string, string] => [a.ticker, assetWords(a)]),
  ];
}

function assetWords(a: NoteAsset): string {
  if (a.currency === 'btc') return 'Bitcoin; currency id btc on the CSV files, base unit msat.';
  return `${a.name} (the service's asset list${a.network === null ? '' : `, network ${a.network}`}, ${a.unitScale} decimals); currency id ${a.currency} on the CSV files.`;
}
