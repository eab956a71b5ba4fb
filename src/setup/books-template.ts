/**
 * The books section `init` writes (docs/journal.md, docs/lots.md, docs/prices.md): a chart of
 * accounts to start from, with every wallet the key sees mapped to an asset account of its own
 * (inactive ones too: their history is in the books), the usual counter, fee, transfer, funding,
 * rounding and fair-value accounts; lots kept first-in first-out (the default for every wallet no
 * `lots.wallets` entry names) from an opening-lots file; and the price cache filled by nightly and
 * month-end (`prices.autoFetch`). Names are placeholders an accountant renames in the config;
 * each account key stays what the mapping refers to.
 *
 * Formats: the journal CSV (the report's Journal sheet), Beancount, hledger and QuickBooks Online.
 * Xero needs the codes of the accountant's own chart, so it is left for them to add.
 */
import type { JournalConfig } from '../config/journal-schema.js';
import type { WalletRow } from '../model/rows.js';

export interface BooksAnswers {
  booksCurrency: string;
  /** relative to the config file's folder */
  openingLotsFile: string;
}

type AccountTemplate = { ledger: string };

/** `Main BTC node` → `MainBtcNode` (a ledger component: a capital or digit first, then letters, digits, -). */
function ledgerComponent(name: string, fallback: string): string {
  const words = name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, ' ').trim().split(' ').filter((w) => w !== '');
  const text = words.map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).join('');
  return text === '' ? fallback : text.slice(0, 48);
}

/** `Main BTC node` → `main_btc_node` (an account key: a lowercase letter first). */
function accountKey(name: string, fallback: string): string {
  const text = name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48);
  return /^[a-z]/.test(text) ? text : fallback;
}

function walletCurrency(wallet: WalletRow): string {
  return wallet.balances[0]?.currency ?? 'btc';
}

/** The asset account of each wallet, keys and ledger names unique. */
function walletAccounts(wallets: readonly WalletRow[], books: string): { accounts: Record<string, AccountTemplate>; mapping: Record<string, string> } {
  const accounts: Record<string, AccountTemplate> = {};
  const mapping: Record<string, string> = {};
  const ledgers = new Set<string>();
  for (const wallet of wallets) {
    const currency = walletCurrency(wallet);
    const parent = currency === books.toLowerCase() ? 'Assets:Cash' : 'Assets:Crypto';
    const fallback = `Wallet${wallet.wallet_id.slice(0, 8).toUpperCase()}`;
    let key = `wallet_${accountKey(wallet.name, wallet.wallet_id.slice(0, 8).replace(/^[0-9]/, 'w'))}`;
    let ledger = `${parent}:${ledgerComponent(wallet.name, fallback)}`;
    for (let n = 2; key in accounts || ledgers.has(ledger); n++) {
      key = `wallet_${accountKey(wallet.name, 'w')}_${n}`;
      ledger = `${parent}:${ledgerComponent(wallet.name, fallback)}${n}`;
    }
    accounts[key] = { ledger };
    ledgers.add(ledger);
    mapping[wallet.wallet_id] = key;
  }
  return { accounts, mapping };
}

export function booksSections(wallets: readonly WalletRow[], answers: BooksAnswers): { journal: Record<string, unknown>; lots: Record<string, unknown>; prices: Record<string, unknown> } {
  const { accounts, mapping } = walletAccounts(wallets, answers.booksCurrency);
  const journal = {
    booksCurrency: answers.booksCurrency,
    formats: ['csv', 'beancount', 'hledger', 'qbo'],
    accounts: {
      ...accounts,
      sales: { ledger: 'Income:Sales' },
      payments_clearing: { ledger: 'Liabilities:Clearing:Payments' },
      transfers: { ledger: 'Assets:Transfers:InTransit' },
      funding: { ledger: 'Equity:Funding:DepositsWithdrawals' },
      fees_network: { ledger: 'Expenses:Fees:Network' },
      fees_processing: { ledger: 'Expenses:Fees:Processing' },
      rounding: { ledger: 'Expenses:Rounding' },
      fv_adjustment: { ledger: 'Assets:Crypto:FairValueAdjustment' },
      fv_gain_loss: { ledger: 'Income:Crypto:FairValueGainLoss' },
    },
    wallets: mapping,
    counter: { send: { standard: 'payments_clearing' }, receive: { standard: 'sales' } },
    transfer: 'transfers',
    fees: { network: 'fees_network', processing: 'fees_processing' },
    balanceMovements: 'funding',
    roundingAccount: 'rounding',
    fairValue: { enabled: true, adjustment: 'fv_adjustment', gainLoss: 'fv_gain_loss' },
  } satisfies Partial<Record<keyof JournalConfig, unknown>>;
  return { journal, lots: { openingLots: answers.openingLotsFile }, prices: { autoFetch: true } };
}
