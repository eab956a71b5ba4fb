import { nowMicros } from '../core/time.js';
import type { Dataset } from '../dataset/dataset.js';
import type { SimWallet } from '../dataset/world.js';
import { ApiError } from '../server/api-error.js';
import { describeIssues, newWalletSchema, updatePoliciesSchema, updateWalletSchema } from './request-schemas.js';

/**
 * Wallet writes: create (provisioned asynchronously: 404 until ready), rename, delete (the wallet
 * becomes inactive), and policy updates (a new processing fee applies to payments written later).
 */
export class WalletWriter {
  constructor(
    private readonly dataset: Dataset,
    private readonly readableAfterMs: number,
  ) {}

  create(body: unknown, allowedEnvironment: number | null): void {
    const parsed = newWalletSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, 'invalid_data', describeIssues(parsed.error));
    const request = parsed.data;
    const ds = this.dataset;
    const e = ds.environmentIndexOf(request.environment_id);
    if (e === null || (allowedEnvironment !== null && allowedEnvironment !== e)) throw new ApiError(403, 'access_rights', 'The credentials do not grant access to this environment');
    if (ds.walletIndexOf(request.id) !== null) throw new ApiError(400, 'invalid_request', 'A wallet with this id exists', { context: { fields: ['id'] } });
    const loc = ds.linesOfCredit.find((l) => l.id === request.line_of_credit_id.toLowerCase());
    if (!loc) throw new ApiError(400, 'line_of_credit_not_found', 'Line of credit not found');
    if (loc.environmentIndex !== e) throw new ApiError(400, 'line_of_credit_network_mismatch', 'The line of credit belongs to another environment');
    const now = nowMicros();
    const wallet: SimWallet = {
      index: ds.wallets.length,
      id: request.id.toLowerCase(),
      name: request.name,
      environmentIndex: e,
      currency: loc.currency,
      currencyKind: loc.currency,
      backing: 'credit',
      lineOfCreditIndex: loc.index,
      network: request.network === 'testnet3' ? 'testnet' : request.network,
      createdUs: now,
      deactivatedUs: null,
      limit: request.limit,
      processingFee: null,
      swaps: false,
      hasPolicies: true,
      weight: 0,
      metadata: request.metadata ?? null,
      policies: { maxPaymentSizeSats: null, transactionsPerMinute: null, sendVolumeLimitSats: null, templateId: null, ofacCompliant: false, updatedUs: now },
      readableFromMs: Date.now() + this.readableAfterMs,
    };
    ds.addWallet(wallet);
  }

  /** End the provisioning window of every created wallet now (time passes, as in `settle()`). */
  makeAllReadable(): void {
    for (const wallet of this.dataset.wallets) if (wallet.readableFromMs !== undefined) wallet.readableFromMs = 0;
  }

  rename(w: number, body: unknown): void {
    const parsed = updateWalletSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, 'invalid_data', describeIssues(parsed.error));
    this.dataset.updateWallet(w, (wallet) => {
      wallet.name = parsed.data.name;
    });
  }

  delete(w: number): void {
    this.dataset.updateWallet(w, (wallet) => {
      if (wallet.deactivatedUs === null) wallet.deactivatedUs = nowMicros();
    });
  }

  updatePolicies(w: number, body: unknown): void {
    const parsed = updatePoliciesSchema.safeParse(body);
    if (!parsed.success) throw new ApiError(422, 'invalid_data', describeIssues(parsed.error));
    const update = parsed.data;
    const wallet = this.dataset.wallets[w] as SimWallet;
    if (Object.keys(update).length === 0) throw new ApiError(400, 'no_updates_provided', 'No policy updates were provided', { context: { wallet_id: wallet.id } });
    this.dataset.updateWallet(w, (target) => {
      const p = target.policies;
      if (update.max_payment_size_sats !== undefined) p.maxPaymentSizeSats = update.max_payment_size_sats;
      if (update.transactions_per_minute !== undefined) p.transactionsPerMinute = update.transactions_per_minute;
      if (update.send_volume_limit_sats !== undefined) p.sendVolumeLimitSats = update.send_volume_limit_sats;
      if (update.template_id !== undefined) p.templateId = update.template_id;
      if (update.ofac_compliant !== undefined && update.ofac_compliant !== null) p.ofacCompliant = update.ofac_compliant;
      if (update.processing_fee !== undefined) target.processingFee = update.processing_fee === null ? null : { sendBps: update.processing_fee.send_basis_points, receiveBps: update.processing_fee.receive_basis_points };
      p.updatedUs = nowMicros();
      target.hasPolicies = true;
    });
  }
}
