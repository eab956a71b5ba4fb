import { hashString, Stream } from '../core/prng.js';
import { US_PER_DAY, US_PER_HOUR, US_PER_MINUTE, US_PER_SECOND, type Micros } from '../core/time.js';
import {
  CAT_STANDARD,
  CAT_TREASURY,
  DIR_RECEIVE,
  DIR_SEND,
  F_CHECK,
  F_HUGE,
  F_LEGACY,
  F_NO_BREAKDOWN,
  F_OVERPAID,
  F_REJECTED,
  F_SHORTCIRCUIT,
  F_SWAP,
  KIND_BIP21,
  KIND_BOLT11,
  KIND_ONCHAIN,
  KIND_TAPROOT,
  KIND_USDBATCH,
  ST_APPROVED,
  ST_COMPLETED,
  ST_EXPIRED,
  ST_FAILED,
  ST_GENERATING,
  ST_RECEIVING,
  ST_SENDING,
  ST_SETTLING_V2,
} from './codes.js';
import type { ResolvedDatasetOptions } from './options.js';
import type { SimWallet, World } from './world.js';

/**
 * The compact, eagerly built part of the dataset: for each generated payment i, its creation and
 * last-update instants, wallet, direction, kind, status, category and variant flags, in typed
 * arrays (~23 bytes per payment). Everything else about payment i is derived on demand from
 * (seed, i) — see payment-core.ts. Payments are numbered in creation order: created[i] is
 * non-decreasing in i, with deliberate ties (equal timestamps) broken by id in every listing.
 */
export interface Timeline {
  count: number;
  created: Float64Array;
  updated: Float64Array;
  wallet: Uint16Array;
  direction: Uint8Array;
  kind: Uint8Array;
  status: Uint8Array;
  category: Uint8Array;
  flags: Uint8Array;
}

export const NS_CLASSIFY = hashString('classify');
const NS_CREATED = hashString('created');

/** Expiry of an unpaid invoice / address, seconds (OpenAPI `Expiration`). */
export function expirationSecondsOf(kind: number): number {
  return kind === KIND_ONCHAIN ? 86_400 : 3_600;
}

export function buildTimeline(options: ResolvedDatasetOptions, world: World): Timeline {
  const n = options.scale;
  const t: Timeline = {
    count: n,
    created: new Float64Array(n),
    updated: new Float64Array(n),
    wallet: new Uint16Array(n),
    direction: new Uint8Array(n),
    kind: new Uint8Array(n),
    status: new Uint8Array(n),
    category: new Uint8Array(n),
    flags: new Uint8Array(n),
  };
  fillCreated(options, t);
  const picker = walletPicker(world.wallets);
  for (let i = 0; i < n; i++) classify(options, world, picker, t, i);
  return t;
}

function fillCreated(options: ResolvedDatasetOptions, t: Timeline): void {
  const n = t.count;
  const span = options.toUs - options.fromUs;
  for (let i = 0; i < n; i++) {
    const s = new Stream(options.seed, i, NS_CREATED);
    const tie = i > 0 && s.chance(0.02);
    t.created[i] = tie ? (t.created[i - 1] as number) : options.fromUs + Math.floor(((i + s.unit()) * span) / n);
  }
  // Month boundaries are where reports split: put one payment exactly on 00:00:00.000000 of each
  // month and one on the last microsecond before it, so off-by-one windows show up in tests.
  const first = new Date(options.fromUs / 1000);
  for (let m = 1; ; m++) {
    const boundary = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + m, 1) * 1000;
    if (boundary >= options.toUs) break;
    const at = lowerBound(t.created, boundary);
    if (at < n && at > 0) {
      t.created[at] = boundary;
      if ((t.created[at - 1] as number) < boundary - 1) t.created[at - 1] = boundary - 1;
    }
  }
}

function lowerBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface WalletPicker {
  pick(at: Micros, unit: number): number;
}

/** Weighted choice among the wallets alive at an instant (inactive wallets stop receiving payments). */
function walletPicker(wallets: readonly SimWallet[]): WalletPicker {
  const cutoffs = [...new Set(wallets.map((w) => w.deactivatedUs).filter((v): v is number => v !== null))].sort((a, b) => a - b);
  const epochs = [...cutoffs, Infinity].map((end, e) => {
    const start = e === 0 ? -Infinity : (cutoffs[e - 1] as number);
    const alive = wallets.filter((w) => w.deactivatedUs === null || w.deactivatedUs > start);
    const cumulative: number[] = [];
    let sum = 0;
    for (const w of alive) cumulative.push((sum += w.weight));
    return { end, alive, cumulative, sum };
  });
  return {
    pick(at, unit) {
      const epoch = epochs.find((e) => at < e.end) ?? (epochs[epochs.length - 1] as (typeof epochs)[number]);
      const r = unit * epoch.sum;
      let k = 0;
      while (k < epoch.cumulative.length - 1 && r >= (epoch.cumulative[k] as number)) k++;
      return (epoch.alive[k] as SimWallet).index;
    },
  };
}

function classify(options: ResolvedDatasetOptions, world: World, picker: WalletPicker, t: Timeline, i: number): void {
  const s = new Stream(options.seed, i, NS_CLASSIFY);
  const created = t.created[i] as number;
  const w = picker.pick(created, s.unit());
  const wallet = world.wallets[w] as SimWallet;
  const direction = s.chance(0.5) ? DIR_SEND : DIR_RECEIVE;
  let flags = 0;

  let kind: number;
  if (wallet.currencyKind === 'asset') kind = KIND_TAPROOT;
  else if (wallet.currencyKind === 'usd') kind = [KIND_BOLT11, KIND_ONCHAIN, KIND_BIP21, KIND_USDBATCH][s.weighted([55, 20, 15, 10])] as number;
  else kind = [KIND_BOLT11, KIND_ONCHAIN, KIND_BIP21][s.weighted([60, 22, 18])] as number;

  // business: a treasury movement starts as a send; transfer-pairs.ts gives it its receiving leg
  const treasuryOk = options.profile === 'stress' || direction === DIR_SEND;
  const category = wallet.currencyKind !== 'asset' && kind !== KIND_USDBATCH && s.chance(options.profile === 'stress' ? 0.03 : 0.02) && treasuryOk ? CAT_TREASURY : CAT_STANDARD;
  if (options.profile === 'business' && category === CAT_TREASURY && kind === KIND_BIP21) kind = KIND_BOLT11; // one rail per pair
  const isCheck = direction === DIR_SEND && category === CAT_STANDARD && kind !== KIND_USDBATCH && kind !== KIND_TAPROOT && s.chance(0.01);
  const legacy =
    options.legacyRecords && wallet.currencyKind === 'btc' && category === CAT_STANDARD && !isCheck && kind !== KIND_BIP21 && created < options.fromUs + 15 * US_PER_DAY && s.chance(0.05);
  if (legacy) flags |= F_LEGACY;

  let status: number;
  let delay: number;
  if (isCheck) {
    flags |= F_CHECK;
    status = s.chance(0.85) ? ST_APPROVED : ST_FAILED;
    delay = s.int(100_000, 2 * US_PER_SECOND);
  } else if (direction === DIR_SEND) {
    if (wallet.swaps && !legacy && category === CAT_STANDARD && (kind === KIND_BOLT11 || kind === KIND_ONCHAIN) && s.chance(0.12)) flags |= F_SWAP;
    status = s.chance(0.06) ? ST_FAILED : ST_COMPLETED;
    if (status === ST_FAILED && s.chance(0.3)) flags |= F_REJECTED;
    if (status === ST_COMPLETED && !legacy && (flags & F_SWAP) === 0 && kind === KIND_BOLT11 && wallet.currencyKind === 'btc' && s.chance(0.03)) flags |= F_SHORTCIRCUIT;
    if (flags & F_REJECTED) delay = s.int(50_000, 500_000);
    else if (flags & F_SWAP) delay = s.int(20 * US_PER_MINUTE, 2 * US_PER_HOUR);
    else if (kind === KIND_ONCHAIN) delay = s.int(10 * US_PER_MINUTE, 90 * US_PER_MINUTE);
    else if (kind === KIND_USDBATCH) delay = s.int(1 * US_PER_DAY, 3 * US_PER_DAY);
    else delay = s.int(300_000, 8 * US_PER_SECOND);
  } else {
    const r = s.unit();
    status = r < 0.8 ? ST_COMPLETED : r < 0.94 ? ST_EXPIRED : ST_FAILED;
    if (kind === KIND_USDBATCH && status === ST_EXPIRED) status = ST_COMPLETED;
    if (status === ST_EXPIRED) delay = expirationSecondsOf(kind) * US_PER_SECOND;
    else if (status === ST_FAILED) delay = s.int(200_000, 2 * US_PER_SECOND);
    else if (kind === KIND_ONCHAIN) delay = s.int(10 * US_PER_MINUTE, 6 * US_PER_HOUR);
    else if (kind === KIND_USDBATCH) delay = s.int(1 * US_PER_DAY, 2 * US_PER_DAY);
    else delay = s.int(5 * US_PER_SECOND, 2 * US_PER_HOUR);
  }

  // A payment that would finish after the end of the range is still open "now"; a few old ones
  // are stuck open. Open sends hold funds; open receives have credited nothing yet.
  const recent = created >= options.toUs - US_PER_DAY;
  const stuck = !isCheck && s.chance(recent ? 0.25 : 0.004);
  if (created + delay >= options.toUs || stuck) {
    if (direction === DIR_SEND && !isCheck) {
      status = options.unknownFields && s.chance(0.5) ? ST_SETTLING_V2 : ST_SENDING;
      flags &= ~(F_REJECTED | F_SHORTCIRCUIT);
      delay = s.int(50_000, 2 * US_PER_SECOND);
    } else if (direction === DIR_RECEIVE) {
      status = s.chance(0.2) ? ST_GENERATING : ST_RECEIVING;
      delay = status === ST_GENERATING ? 0 : s.int(200_000, 1 * US_PER_SECOND);
    }
    if (created + delay >= options.toUs) delay = Math.max(0, options.toUs - 1 - created);
  }

  if (direction === DIR_RECEIVE && status === ST_COMPLETED) {
    if (options.profile === 'stress' && category === CAT_TREASURY && wallet.currencyKind === 'btc' && !legacy && s.chance(0.2)) flags |= F_HUGE;
    if (kind === KIND_ONCHAIN && wallet.processingFee !== null && wallet.processingFee.receiveBps > 0 && category === CAT_STANDARD && !legacy && s.chance(0.08)) flags |= F_OVERPAID;
  }
  if (status === ST_COMPLETED && category === CAT_STANDARD && !legacy && (flags & F_OVERPAID) === 0 && s.chance(0.02)) flags |= F_NO_BREAKDOWN;

  t.wallet[i] = w;
  t.direction[i] = direction;
  t.kind[i] = kind;
  t.status[i] = status;
  t.category[i] = category;
  t.flags[i] = flags;
  t.updated[i] = created + delay;
}
