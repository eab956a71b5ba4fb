/**
 * The checks the Crypto assets note raises about its own inputs (docs/lots.md "The checks"):
 *
 *   lots.price_stale             a fair value whose closing price is older than the configured age at
 *                                the period's end (lots.disclosure.priceMaxAgeSeconds): the asset, the
 *                                price's time and its source, so someone can give a fresher one
 *   lots.restrictions_unstated   the configuration does not say whether any crypto asset held is under
 *                                a contractual sale restriction (ASC 350-60-50-5): "none" must be said
 */
import type { LotsDisclosure } from '../config/lots-schema.js';
import type { BuildContext } from '../journal/build-movement.js';
import { groupThousands } from '../money/format.js';
import type { Finding } from '../model/results.js';
import type { Window } from '../model/window.js';
import { finding } from '../reconcile/findings.js';
import { ageWords, priceSource } from './tables/crypto-assets-words.js';

export interface NoteCheckInput {
  ctx: BuildContext;
  window: Window;
  disclosure: LotsDisclosure;
  /** the currencies the note values at the period's end */
  currencies: readonly string[];
}

export function noteChecks(input: NoteCheckInput): { findings: Finding[]; evaluated: Record<string, number> } {
  const { ctx, window, disclosure } = input;
  const findings: Finding[] = [];
  const end = Date.parse(window.to.slice(0, 23) + 'Z');
  for (const currency of input.currencies) {
    const point = ctx.valuation.prices.get(currency)?.at(window.to) ?? null;
    if (point === null) continue;
    const ageMs = end - Date.parse(point.at.slice(0, 23) + 'Z');
    if (ageMs <= disclosure.priceMaxAgeSeconds * 1000) continue;
    const code = ctx.valuation.displayCode(currency);
    const days = Math.floor(ageMs / 86_400_000);
    findings.push(
      finding('lots.price_stale', {
        subject_kind: 'run',
        subject_id: `price:${currency}`,
        wallet_id: null,
        currency,
        actual: point.at,
        message: `the fair value of ${code} at the period's end uses ${groupThousands(point.text)} ${ctx.config.booksCurrency} per ${code} from ${priceSource(point, currency, ctx)}, a price of ${point.at.slice(0, 19).replace('T', ' ')} UTC — ${days > 0 ? `${days} day${days === 1 ? '' : 's'}` : ageWords(Math.round(ageMs / 1000))} before the period's end, older than ${ageWords(disclosure.priceMaxAgeSeconds)} (lots.disclosure.priceMaxAgeSeconds): give a price at the period's end, or confirm this one`,
      }),
    );
  }
  if (disclosure.restrictions === undefined) {
    findings.push(
      finding('lots.restrictions_unstated', {
        subject_kind: 'run',
        subject_id: 'lots.disclosure.restrictions',
        wallet_id: null,
        message: 'the configuration does not say whether any crypto asset held is subject to a contractual sale restriction (ASC 350-60-50-5): set lots.disclosure.restrictions to "none", or list each restriction',
      }),
    );
  }
  return { findings, evaluated: { 'lots.price_stale': input.currencies.length, 'lots.restrictions_unstated': 1 } };
}
