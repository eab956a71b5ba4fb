/**
 * The company's own off-service wallets and which balance movements reach them (docs/lots.md
 * "Withdrawals and own custody"). A `withdrawn` or `deposited` ledger entry names no payment and
 * the service gives no destination for it (withdraw_id, amount, effective time: nothing else), so
 * the configuration says what it was, per wallet or per entry (an entry's rule wins):
 *
 *   withdrawal  own_custody   the lots move to the custody wallet with their dates and cost, no gain
 *               disposal      relieved as a disposal (proceeds = the journal's value), a Form 8949 row
 *               (no rule)     a disposal too, and a warning (lots.withdrawal_unclassified)
 *   deposit     own_custody   lots come back from the custody wallet with their dates and cost
 *               external      (and no rule) an acquisition: basis from the opening-lots file
 *
 * A custody wallet is a wallet of its own for Treas. Reg. 1.1012-1(j) (lots are tracked there, in
 * its own order when they come back); its lots carry the id `custody:<id>` where a service
 * wallet's carry the wallet's UUID.
 */
import type { LotsConfig } from '../config/lots-schema.js';
import type { CustodyPort } from '../journal/custody-book.js';
import type { MethodPeriod } from './method.js';

export type MovementTreatment = 'own_custody' | 'disposal' | 'external' | 'unclassified';

export interface Classified {
  treatment: MovementTreatment;
  /** with own_custody: the custody wallet's lot-holder id (`custody:<id>`) */
  custody?: string;
}

export interface CustodyRules {
  /** a no-payment movement of `walletId`, by its ledger ref (`withdrawn:<id>`, `deposited:<id>`) */
  classify(walletId: string, ref: string): Classified;
  /** the custody wallet's name, by its lot-holder id; null for a service wallet */
  name(holderId: string): string | null;
  /** the journal account key a movement to or from a custody wallet posts to (null: the journal's balanceMovements) */
  account(holderId: string): string | null;
  /** the custody wallets' methods, by lot-holder id */
  methods: ReadonlyMap<string, readonly MethodPeriod[]>;
  /** every custody wallet as the report folder names wallets (the `wallet_name` beside a `wallet_id`) */
  holders: ReadonlyArray<{ wallet_id: string; name: string }>;
}

const CUSTODY = 'custody:';

export function isCustody(holderId: string): boolean {
  return holderId.startsWith(CUSTODY);
}

/**
 * The custody wallets as the journal sees them (journal/custody-book.ts): which movement reaches
 * which one, the account its moves post to instead of the journal's balanceMovements (its own
 * account when it has one: a transfer between two of the company's asset accounts), its name.
 */
export function custodyPort(rules: CustodyRules): CustodyPort {
  return {
    holder: (walletId, ref) => rules.classify(walletId, ref).custody ?? null,
    account: (holder) => rules.account(holder),
    name: (holder) => rules.name(holder),
  };
}

export function custodyRules(config: Pick<LotsConfig, 'custody' | 'withdrawals' | 'deposits'>): CustodyRules {
  const holder = (id: string): string => `${CUSTODY}${id}`;
  const rules = [...config.withdrawals.map((r) => ({ ...r, kind: 'withdrawn' })), ...config.deposits.map((r) => ({ ...r, kind: 'deposited' }))];
  const byEntry = new Map(rules.filter((r) => r.entry !== undefined).map((r) => [r.entry as string, r]));
  const byWallet = new Map(rules.filter((r) => r.wallet !== undefined).map((r) => [`${r.kind}|${(r.wallet as string).toLowerCase()}`, r]));
  const custody = new Map(Object.entries(config.custody).map(([id, c]) => [holder(id), c]));
  return {
    classify(walletId, ref) {
      const kind = ref.slice(0, ref.indexOf(':'));
      const rule = byEntry.get(ref) ?? byWallet.get(`${kind}|${walletId.toLowerCase()}`);
      if (rule === undefined) return { treatment: kind === 'withdrawn' ? 'unclassified' : 'external' };
      return rule.custody === undefined ? { treatment: rule.treatment } : { treatment: rule.treatment, custody: holder(rule.custody) };
    },
    name: (holderId) => custody.get(holderId)?.name ?? null,
    account: (holderId) => custody.get(holderId)?.account ?? null,
    methods: new Map([...custody].filter(([, c]) => c.methods !== undefined).map(([id, c]) => [id, c.methods as readonly MethodPeriod[]])),
    holders: [...custody].map(([id, c]) => ({ wallet_id: id, name: c.name })),
  };
}
