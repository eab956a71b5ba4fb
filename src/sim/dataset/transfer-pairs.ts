import { hashString, Stream } from '../core/prng.js';
import { US_PER_DAY, US_PER_HOUR, US_PER_SECOND, type Micros } from '../core/time.js';
import { CAT_STANDARD, CAT_TREASURY, DIR_RECEIVE, DIR_SEND, F_REJECTED, F_SHORTCIRCUIT, F_SWAP, KIND_BOLT11, KIND_ONCHAIN, ST_COMPLETED } from './codes.js';
import type { ResolvedDatasetOptions } from './options.js';
import type { Timeline } from './timeline.js';
import type { SimWallet, World } from './world.js';

/**
 * Treasury transfers of the `business` profile: a completed treasury send from one of the
 * organization's wallets at index i and, at index i + 1, the matching completed receive in another
 * of its wallets of the same currency — same principal, the send's fee on top — so the books'
 * transfer account nets to zero. Both legs settle in the same 12-hour window (the demo's BTC price
 * file is 12-hourly, so both legs value at one price) and away from month ends (a month-end's
 * transfer account closes at zero); see transferPrincipal for why no rounding splits them.
 */

const NS_PAIR = hashString('transfer-pair');
const NS_PAIR_AMOUNT = hashString('transfer-amount');
const PRICE_WINDOW_US = 12 * US_PER_HOUR;

/** Is payment i the receiving leg of a pair (its send is payment i − 1)? */
export function isPairedReceive(options: ResolvedDatasetOptions, t: Timeline, i: number): boolean {
  return options.profile === 'business' && t.category[i] === CAT_TREASURY && t.direction[i] === DIR_RECEIVE;
}

/** The principal of the pair whose send is payment `sendIndex`, in the wallet's base units. */
export function transferPrincipal(seed: number, sendIndex: number, currencyKind: SimWallet['currencyKind'], kind: number): bigint {
  const s = new Stream(seed, sendIndex, NS_PAIR_AMOUNT);
  const logUniformSteps = (lo: number, hi: number): bigint => BigInt(Math.min(hi, Math.floor(Math.exp(Math.log(lo) + s.unit() * (Math.log(hi + 1) - Math.log(lo))))));
  if (currencyKind === 'usd') return logUniformSteps(5, 300) * 25_000n; // $1,250–$75,000, steps of $250 (native: no rounding)
  // On chain (a sweep to or from cold storage) pays a network fee, so its principal is whole BTC: a
  // price with two decimals values whole BTC to the exact cent, and the fee's rounding cannot move
  // the principal's share. Lightning between two wallets of one organization is short-circuited
  // (no fee): 0.05–3 BTC in steps of 0.01 BTC, both legs rounded alike.
  return kind === KIND_ONCHAIN ? logUniformSteps(1, 3) * 100_000_000_000n : logUniformSteps(5, 300) * 1_000_000_000n;
}

/** Turn each eligible completed treasury send into a pair (in place); other completed ones become ordinary sends. */
export function pairTransfers(options: ResolvedDatasetOptions, world: World, t: Timeline): void {
  if (options.profile !== 'business') return;
  const monthEnds = monthBoundaries(options.fromUs, options.toUs);
  const nearMonthEnd = (at: Micros): boolean => monthEnds.some((b) => Math.abs(at - b) < US_PER_DAY);
  for (let i = 0; i < t.count; i++) {
    if (t.category[i] !== CAT_TREASURY) continue;
    if (t.direction[i] !== DIR_SEND) {
      t.category[i] = CAT_STANDARD; // a lone treasury receive is a paired one's job
      continue;
    }
    if (t.status[i] !== ST_COMPLETED || ((t.flags[i] as number) & F_REJECTED) !== 0) continue; // no money moved
    const created = t.created[i] as Micros;
    const s = new Stream(options.seed, i, NS_PAIR);
    const receivedUs = (t.updated[i] as Micros) + s.int(1, 20) * US_PER_SECOND;
    const from = world.wallets[t.wallet[i] as number] as SimWallet;
    const partners = world.wallets.filter((w) => w.index !== from.index && w.currencyKind === from.currencyKind && w.createdUs < created && (w.deactivatedUs === null || w.deactivatedUs > receivedUs));
    const eligible =
      i + 1 < t.count &&
      partners.length > 0 &&
      Math.floor(created / PRICE_WINDOW_US) === Math.floor(receivedUs / PRICE_WINDOW_US) &&
      receivedUs < options.toUs &&
      !nearMonthEnd(created) &&
      !nearMonthEnd(t.created[i + 1] as Micros);
    if (!eligible) {
      t.category[i] = CAT_STANDARD;
      continue;
    }
    const to = partners[Math.floor(s.unit() * partners.length)] as SimWallet;
    if (from.currencyKind === 'btc' && t.kind[i] === KIND_BOLT11) t.flags[i] = ((t.flags[i] as number) & ~F_SWAP) | F_SHORTCIRCUIT;
    t.created[i + 1] = created; // a tie with its send, broken by id like every tie
    t.updated[i + 1] = receivedUs;
    t.wallet[i + 1] = to.index;
    t.direction[i + 1] = DIR_RECEIVE;
    t.kind[i + 1] = t.kind[i] as number;
    t.status[i + 1] = ST_COMPLETED;
    t.category[i + 1] = CAT_TREASURY;
    t.flags[i + 1] = 0;
    i++;
  }
}

function monthBoundaries(fromUs: Micros, toUs: Micros): Micros[] {
  const first = new Date(fromUs / 1000);
  const out: Micros[] = [];
  for (let m = 0; ; m++) {
    const boundary = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + m, 1) * 1000;
    if (boundary > toUs) return out;
    out.push(boundary);
  }
}
