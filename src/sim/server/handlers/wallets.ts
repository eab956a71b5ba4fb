import { uuidOf } from '../../core/ids.js';
import { hashString } from '../../core/prng.js';
import { formatMicros } from '../../core/time.js';
import type { SimWallet } from '../../dataset/world.js';
import { ApiError } from '../api-error.js';
import type { Handler } from '../context.js';
import { isReadable, requireEnvironment, requireOrganization, requireWallet, requireWrite } from '../scope.js';

const NS_POLICY = hashString('policy');
const NETWORKS = ['mainnet', 'testnet', 'signet', 'mutinynet', 'none'] as const;

/** GET /organizations/{org}/assets (OpenAPI `SupportedAssets`) */
export const listAssets: Handler = (ctx) => {
  requireOrganization(ctx);
  const network = ctx.query.oneOf('network', NETWORKS);
  const assets = ctx.state.dataset.world.assets.filter((a) => network === undefined || a.network === network);
  return { status: 200, body: { assets: assets.map((a) => ({ asset: a.assetId, name: a.name, network: a.network, decimal_display: a.decimalDisplay })) } };
};

/** GET /organizations/{org}/wallets: a BARE array; only active wallets unless inactive=true. */
export const listWallets: Handler = (ctx) => {
  requireOrganization(ctx);
  const environmentId = ctx.query.uuid('environment_id');
  const environment = environmentId === undefined ? ctx.principal.environmentIndex : requireEnvironment(ctx, environmentId);
  const inactive = ctx.query.boolean('inactive') ?? false;
  const ds = ctx.state.dataset;
  const wallets = ds.wallets.filter((w) => (environment === null || w.environmentIndex === environment) && (inactive || w.deactivatedUs === null) && isReadable(w));
  return { status: 200, body: wallets.map((w) => ds.renderWallet(w.index)) };
};

export const getWallet: Handler = (ctx) => {
  const { index } = requireWallet(ctx);
  return { status: 200, body: ctx.state.dataset.renderWallet(index) };
};

export const createWallet: Handler = async (ctx) => {
  requireOrganization(ctx);
  requireWrite(ctx);
  ctx.state.wallets.create(await ctx.body(), ctx.principal.environmentIndex);
  return { status: 202 };
};

export const updateWallet: Handler = async (ctx) => {
  const { index } = requireWallet(ctx);
  requireWrite(ctx);
  ctx.state.wallets.rename(index, await ctx.body());
  return { status: 202 };
};

export const deleteWallet: Handler = (ctx) => {
  const { index } = requireWallet(ctx);
  requireWrite(ctx);
  ctx.state.wallets.delete(index);
  return { status: 202 };
};

function renderPolicies(seed: number, organizationId: string, wallet: SimWallet): Record<string, unknown> {
  const p = wallet.policies;
  const at = formatMicros(p.updatedUs);
  const id = (k: number): string => uuidOf(seed, NS_POLICY, wallet.index, k);
  const policies: Array<Record<string, unknown>> = [];
  if (p.maxPaymentSizeSats !== null) policies.push({ type: 'max_payment_size', data: { id: id(1), max_size_sats: p.maxPaymentSizeSats, created_at: at, updated_at: at } });
  if (p.transactionsPerMinute !== null) policies.push({ type: 'transaction_velocity', data: { id: id(2), transactions_per_minute: p.transactionsPerMinute, created_at: at, updated_at: at } });
  if (p.sendVolumeLimitSats !== null) policies.push({ type: 'send_volume_limit', data: { id: id(3), limit_sats: p.sendVolumeLimitSats, created_at: at, updated_at: at } });
  if (p.templateId !== null) policies.push({ type: 'reflex_approval', data: { id: id(4), template_id: p.templateId, threshold: null, created_at: at, updated_at: at } });
  if (p.ofacCompliant) policies.push({ type: 'ofac_compliant', data: { id: id(5), created_at: at } });
  if (wallet.processingFee) policies.push({ type: 'processing_fee', data: { id: id(6), rates: { send_basis_points: wallet.processingFee.sendBps, receive_basis_points: wallet.processingFee.receiveBps }, created_at: at, updated_at: at } });
  return { id: id(0), organization_id: organizationId, policies, updated_at: at };
}

/** GET …/wallets/{wallet}/policies: 404 wallet_policies_not_found when the wallet has none. */
export const getPolicies: Handler = (ctx) => {
  const { wallet } = requireWallet(ctx);
  if (!wallet.hasPolicies) throw new ApiError(404, 'wallet_policies_not_found', 'No policies for this wallet', { context: { wallet_id: wallet.id } });
  const ds = ctx.state.dataset;
  return { status: 200, body: renderPolicies(ds.options.seed, ds.organizationId, wallet) };
};

export const updatePolicies: Handler = async (ctx) => {
  const { index } = requireWallet(ctx);
  requireWrite(ctx);
  ctx.state.wallets.updatePolicies(index, await ctx.body());
  return { status: 202 };
};
