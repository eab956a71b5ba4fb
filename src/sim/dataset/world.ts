import { uuidOf } from '../core/ids.js';
import { hashString, Stream } from '../core/prng.js';
import { US_PER_DAY, type Micros } from '../core/time.js';
import type { EnvironmentKind, ResolvedDatasetOptions } from './options.js';

/**
 * The fixed part of a dataset: organization, environments, lines of credit, wallets and assets.
 * Small (one object per wallet) and derived from the seed alone.
 */

export type CurrencyKind = 'btc' | 'usd' | 'asset';
export type Backing = 'node' | 'credit';

export interface SimEnvironment {
  index: number;
  id: string;
  kind: EnvironmentKind;
  name: string;
}

export interface SimLineOfCredit {
  index: number;
  id: string;
  environmentIndex: number;
  currency: 'btc' | 'usd';
}

export interface SimWallet {
  index: number;
  id: string;
  name: string;
  environmentIndex: number;
  /** wire currency: `btc`, `usd` or `asset:<66 hex>` */
  currency: string;
  currencyKind: CurrencyKind;
  backing: Backing;
  lineOfCreditIndex: number | null;
  network: string;
  createdUs: Micros;
  /** set for inactive (deleted) wallets: no payment is created after it */
  deactivatedUs: Micros | null;
  /** credit limit in base units (credit-backed wallets) */
  limit: bigint | null;
  /** processing fee rates in basis points; null = no processing fee policy (fee-free wallet) */
  processingFee: { sendBps: number; receiveBps: number } | null;
  /** node-backed BTC wallets with swaps enabled route some sends through a swap */
  swaps: boolean;
  /** false → GET policies answers 404 wallet_policies_not_found */
  hasPolicies: boolean;
  /** relative share of the payments */
  weight: number;
  metadata: Record<string, string> | null;
  /** wallet policies besides the processing fee (GET/PATCH …/policies) */
  policies: WalletPolicyState;
  /** wallets created through the API are not readable before this wall-clock time (ms) */
  readableFromMs?: number;
}

export interface WalletPolicyState {
  maxPaymentSizeSats: number | null;
  transactionsPerMinute: number | null;
  sendVolumeLimitSats: number | null;
  templateId: string | null;
  ofacCompliant: boolean;
  updatedUs: Micros;
}

export interface SimAsset {
  /** 66 hex digits (33-byte asset id) */
  assetId: string;
  currency: string;
  name: string;
  network: string;
  decimalDisplay: number;
}

export interface World {
  seed: number;
  organizationId: string;
  environments: SimEnvironment[];
  linesOfCredit: SimLineOfCredit[];
  wallets: SimWallet[];
  /** assets listed by GET /assets; the first is the one the asset wallet holds */
  assets: SimAsset[];
  fromUs: Micros;
  toUs: Micros;
}

interface WalletTemplate {
  currencyKind: CurrencyKind;
  backing: Backing;
  fee: { sendBps: number; receiveBps: number } | null;
  swaps: boolean;
  inactive: boolean;
  hasPolicies: boolean;
  weight: number;
  label: string;
}

// Ordered so that with the default two environments (wallet k → environment k mod 2) each
// environment holds BTC and USD wallets, fee-bearing and fee-free ones.
const TEMPLATES: readonly WalletTemplate[] = [
  { currencyKind: 'btc', backing: 'node', fee: { sendBps: 100, receiveBps: 50 }, swaps: true, inactive: false, hasPolicies: true, weight: 4, label: 'Main BTC node' },
  { currencyKind: 'usd', backing: 'credit', fee: { sendBps: 150, receiveBps: 150 }, swaps: false, inactive: false, hasPolicies: true, weight: 3, label: 'USD operations' },
  { currencyKind: 'usd', backing: 'credit', fee: null, swaps: false, inactive: false, hasPolicies: true, weight: 2, label: 'USD treasury' },
  { currencyKind: 'btc', backing: 'credit', fee: { sendBps: 250, receiveBps: 0 }, swaps: false, inactive: false, hasPolicies: true, weight: 3, label: 'BTC credit' },
  { currencyKind: 'asset', backing: 'node', fee: null, swaps: false, inactive: false, hasPolicies: true, weight: 1, label: 'Stablecoin rail' },
  { currencyKind: 'btc', backing: 'node', fee: null, swaps: true, inactive: true, hasPolicies: true, weight: 1, label: 'Retired BTC node' },
  { currencyKind: 'btc', backing: 'credit', fee: { sendBps: 100, receiveBps: 100 }, swaps: false, inactive: false, hasPolicies: true, weight: 2, label: 'Merchant payouts' },
  { currencyKind: 'btc', backing: 'node', fee: null, swaps: true, inactive: false, hasPolicies: false, weight: 2, label: 'Cold BTC node' },
];

const NS_ORG = hashString('organization');
const NS_ENV = hashString('environment');
const NS_WALLET = hashString('wallet');
const NS_LOC = hashString('line-of-credit');
const NS_ASSET = hashString('asset');

export function buildWorld(options: ResolvedDatasetOptions): World {
  const { seed } = options;
  const environments: SimEnvironment[] = options.environments.map((kind, index) => ({
    index,
    id: uuidOf(seed, NS_ENV, index),
    kind,
    name: `${kind === 'production' ? 'Production' : 'Staging'} ${index + 1}`,
  }));
  const assetStream = new Stream(seed, 0, NS_ASSET);
  const mainAssetId = `02${assetStream.hex(32)}`;
  const assets: SimAsset[] = [
    { assetId: mainAssetId, currency: `asset:${mainAssetId}`, name: 'USDT', network: 'mainnet', decimalDisplay: 6 },
    { assetId: `03${assetStream.hex(32)}`, currency: '', name: 'TESTCOIN', network: 'mutinynet', decimalDisplay: 2 },
  ];
  for (const asset of assets) asset.currency = `asset:${asset.assetId}`;

  const linesOfCredit: SimLineOfCredit[] = [];
  const locFor = (environmentIndex: number, currency: 'btc' | 'usd'): number => {
    const existing = linesOfCredit.find((l) => l.environmentIndex === environmentIndex && l.currency === currency);
    if (existing) return existing.index;
    const index = linesOfCredit.length;
    linesOfCredit.push({ index, id: uuidOf(seed, NS_LOC, index), environmentIndex, currency });
    return index;
  };

  const span = options.toUs - options.fromUs;
  const wallets: SimWallet[] = [];
  let assetWallets = 0;
  for (let k = 0; k < options.wallets; k++) {
    let template = TEMPLATES[k % TEMPLATES.length] as WalletTemplate;
    if (template.currencyKind === 'asset' && assetWallets > 0) template = TEMPLATES[0] as WalletTemplate;
    if (template.currencyKind === 'asset') assetWallets++;
    const environmentIndex = k % environments.length;
    const environment = environments[environmentIndex] as SimEnvironment;
    const staging = environment.kind === 'staging';
    const currency = template.currencyKind === 'asset' ? (assets[0] as SimAsset).currency : template.currencyKind;
    const locIndex = template.backing === 'credit' && template.currencyKind !== 'asset' ? locFor(environmentIndex, template.currencyKind) : null;
    const stream = new Stream(seed, k, NS_WALLET);
    wallets.push({
      index: k,
      id: uuidOf(seed, NS_WALLET, k),
      name: `${template.label}${k >= TEMPLATES.length ? ` ${Math.floor(k / TEMPLATES.length) + 1}` : ''}`,
      environmentIndex,
      currency,
      currencyKind: template.currencyKind,
      backing: template.backing,
      lineOfCreditIndex: locIndex,
      network: staging ? (template.backing === 'node' ? 'signet' : 'mutinynet') : 'mainnet',
      createdUs: options.fromUs - (30 + k) * US_PER_DAY - stream.int(0, 86_399) * 1_000_000,
      deactivatedUs: template.inactive ? options.fromUs + Math.floor(span * 0.6) : null,
      limit: template.backing === 'credit' ? (template.currencyKind === 'usd' ? 50_000_000n : 1_000_000_000_000n) : null,
      processingFee: template.fee,
      swaps: template.swaps && template.currencyKind === 'btc' && template.backing === 'node',
      hasPolicies: template.hasPolicies,
      weight: template.weight,
      metadata: k % 3 === 0 ? { cost_center: `cc-${100 + k}`, owner: 'finance' } : null,
      policies: { maxPaymentSizeSats: 100_000_000, transactionsPerMinute: k % 2 === 0 ? 120 : null, sendVolumeLimitSats: null, templateId: null, ofacCompliant: true, updatedUs: options.fromUs - 20 * US_PER_DAY },
    });
  }
  return { seed, organizationId: uuidOf(seed, NS_ORG, 0), environments, linesOfCredit, wallets, assets, fromUs: options.fromUs, toUs: options.toUs };
}
