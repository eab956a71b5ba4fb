/**
 * The counter account of a movement's principal: the first matching rule, else the default by
 * direction × category (a treasury movement defaults to the transfer account), and deposits or
 * withdrawals without a payment go to the balance-movements account.
 */
import type { JournalConfig, JournalRule } from '../config/journal-schema.js';
import type { PaymentRow } from '../model/rows.js';

export interface CompiledRule {
  rule: JournalRule;
  memo: RegExp | null;
  metadata: Array<[string, (value: string) => boolean]>;
}

export function compileRules(rules: readonly JournalRule[]): CompiledRule[] {
  return rules.map((rule) => ({
    rule,
    memo: rule.match.memo === undefined ? null : new RegExp(rule.match.memo, 'u'),
    metadata: Object.entries(rule.match.metadata ?? {}).map(([key, want]): [string, (value: string) => boolean] => {
      if (typeof want === 'string') return [key, (v) => v === want];
      const re = new RegExp(want.matches, 'u');
      return [key, (v) => re.test(v)];
    }),
  }));
}

export function ruleMatches(compiled: CompiledRule, payment: PaymentRow): boolean {
  const m = compiled.rule.match;
  if (m.wallet !== undefined && m.wallet.toLowerCase() !== payment.wallet_id.toLowerCase()) return false;
  if (m.direction !== undefined && m.direction !== payment.direction) return false;
  if (m.category !== undefined && m.category !== payment.category) return false;
  if (m.kind !== undefined && m.kind !== payment.kind) return false;
  if (m.route !== undefined && m.route !== payment.route) return false;
  if (m.currency !== undefined && m.currency.toLowerCase() !== payment.currency) return false;
  if (compiled.memo !== null && !compiled.memo.test(payment.description ?? '')) return false;
  for (const [key, test] of compiled.metadata) {
    const value = payment.metadata?.[key];
    if (value === undefined || !test(value)) return false;
  }
  return true;
}

/** The counter account key and the rule that chose it (null = the default). */
export function counterAccount(config: JournalConfig, rules: readonly CompiledRule[], payment: PaymentRow | null, direction: 'send' | 'receive'): { key: string; rule: string | null } {
  if (payment === null) return { key: config.counter[direction].standard, rule: null };
  for (const compiled of rules) if (ruleMatches(compiled, payment)) return { key: compiled.rule.counter, rule: compiled.rule.name };
  if (payment.category === 'treasury') return { key: config.counter[direction].treasury ?? config.transfer, rule: null };
  return { key: config.counter[direction].standard, rule: null };
}
