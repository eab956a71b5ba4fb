import type { SimWallet } from '../dataset/world.js';
import { accessRights, ApiError, walletNotFound } from './api-error.js';
import type { RequestContext } from './context.js';

/**
 * Access checks shared by the handlers (docs/service-facts.md#authentication): the organization in the
 * path must be ours; an environment-scoped key reaches only its environment and its wallets
 * (anything else is 403 access_rights); writes need the WRITE permission.
 */

export function requireOrganization(ctx: RequestContext): void {
  if (ctx.params['organization_id'] !== ctx.state.dataset.organizationId) throw accessRights('The credentials do not grant access to this organization');
}

export function requireEnvironment(ctx: RequestContext, environmentId = ctx.params['environment_id'] ?? ''): number {
  requireOrganization(ctx);
  const e = ctx.state.dataset.environmentIndexOf(environmentId);
  if (e === null) throw accessRights('The credentials do not grant access to this environment');
  if (ctx.principal.environmentIndex !== null && ctx.principal.environmentIndex !== e) throw accessRights('The API key is scoped to another environment');
  return e;
}

export function requireWallet(ctx: RequestContext): { index: number; wallet: SimWallet } {
  requireOrganization(ctx);
  const id = ctx.params['wallet_id'] ?? '';
  const w = ctx.state.dataset.walletIndexOf(id);
  const wallet = w === null ? undefined : ctx.state.dataset.wallets[w];
  if (w === null || !wallet || (wallet.readableFromMs ?? 0) > Date.now()) throw walletNotFound(id);
  if (ctx.principal.environmentIndex !== null && ctx.principal.environmentIndex !== wallet.environmentIndex) throw accessRights('The API key is scoped to another environment');
  return { index: w, wallet };
}

export function requireWrite(ctx: RequestContext): void {
  if (!ctx.principal.permissions.has('write')) throw new ApiError(403, 'access_rights', 'The credentials lack WRITE access');
}

export function isReadable(wallet: SimWallet): boolean {
  return (wallet.readableFromMs ?? 0) <= Date.now();
}
