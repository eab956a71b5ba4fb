/**
 * The journal's checks (docs/journal.md): run by the journal pass of the report stage, and only
 * with a `journal` mapping in the config, so they are listed in a run's checks only then.
 */
import type { CheckDefinition } from './check-definition.js';

export const JOURNAL_CHECKS = [
  {
    id: 'journal.wallet_unmapped',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'Every wallet has an asset account',
    rule: 'Every wallet in scope is listed under journal.wallets with its asset account; the movements of an unlisted wallet are not journaled (never silently dropped: this finding names it).',
  },
  {
    id: 'journal.needs_price',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: "Every movement has a price in the books' currency",
    rule:
      "A movement is valued by, in order: the books' own currency, the payment's quote, the price file's last price at or before the movement " +
      'within its maximum staleness. Without any, the entry is listed here and left out of the Beancount, hledger, QuickBooks and Xero files.',
  },
  {
    id: 'journal.price_fetch_failed',
    severity: 'error',
    subject_kind: 'run',
    description: "The window's prices could be fetched",
    rule:
      'With prices.autoFetch, nightly and month-end first fill the price cache for their window (docs/prices.md); when no source of the policy covers it ' +
      '(rate limited, no data, source gone, wrong currency, unavailable), this finding names each failure, and the run values only what the cache and the price file hold. ' +
      'When no source answered at all and the books lack a price of the window, the run writes nothing and exits 75 instead.',
  },
  {
    id: 'journal.price_gap',
    severity: 'warning',
    subject_kind: 'run',
    description: 'The price sources have a close for every interval of the window',
    rule: 'A source that answered without a close for some intervals of the window leaves a gap; the gaps are listed here, never filled or interpolated (a later source of the policy may still price those movements).',
  },
  {
    id: 'journal.unbalanced',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Every journal entry balances',
    rule: 'Σ debits = Σ credits of every entry, in source base units and in books minor units, checked before any file is written; an unbalanced entry is written nowhere.',
  },
  {
    id: 'journal.unposted',
    severity: 'error',
    subject_kind: 'ledger_entry',
    description: 'Every balance movement can be posted',
    rule: 'A ledger entry that moves the balance (credited, captured, deposited, withdrawn, or an unknown type with an effect) has a known amount.',
  },
  {
    id: 'journal.breakdown_unknown',
    severity: 'warning',
    subject_kind: 'ledger_entry',
    description: 'The fee split of a posted send is known',
    rule:
      "A capture's principal, network fee and processing fee come from its own payment_breakdown, else from its payment when they sum to the " +
      'captured amount; otherwise the whole amount is posted to the counter account and listed here.',
  },
  {
    id: 'journal.wallet_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The journal moves each wallet by its roll-forward',
    rule: "Per wallet and currency: Σ debits − Σ credits on the wallet's asset account, in source base units, = credits − debits of the balance roll-forward (balances.csv).",
  },
  {
    id: 'journal.fee_tieout',
    severity: 'error',
    subject_kind: 'wallet',
    description: 'The journal fee accounts tie to fees.csv',
    rule:
      'Per wallet, currency and fee account (network, processing), sends only, in source base units: the journal total − fees of payments created ' +
      "before the window + fees of completed sends created in the window and posted after it = fees.csv's sum.",
  },
] as const satisfies readonly CheckDefinition[];
