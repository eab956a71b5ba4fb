/**
 * The `journal` config section: the chart-of-accounts mapping that turns wallet movements into
 * balanced entries (docs/journal.md). Accounts are declared once under a logical key with their
 * name in each target (plain-text ledger path, QuickBooks Online name, Xero code); everything else
 * refers to keys, so a typo is refused at load time (exit 78), not discovered in the ERP.
 */
import { z } from 'zod';
import { ROUNDING_MODES } from '../money/rounding.js';

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
const accountKey = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected an account key such as fees_network');

/** Beancount's rule (hledger accepts it too): a root type, then capitalised components. */
const ledgerAccount = z
  .string()
  .regex(/^(Assets|Liabilities|Equity|Income|Expenses)(:[A-Z0-9][A-Za-z0-9-]*)+$/, 'expected a ledger account such as Assets:Crypto:Voltage:Ops (Assets|Liabilities|Equity|Income|Expenses, then :Capitalised components)');

export const JOURNAL_FORMATS = ['beancount', 'hledger', 'csv', 'qbo', 'xero'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

export const accountSchema = z.strictObject({
  /** the plain-text ledger name (Beancount, hledger, the generic CSV) */
  ledger: ledgerAccount,
  /** QuickBooks Online account name, `Parent:Sub` for a sub-account (default: `ledger`) */
  qbo: z.string().min(1).max(100).refine((s) => s.trim() === s, 'no leading or trailing spaces (QuickBooks matches names exactly)').optional(),
  /** Xero account code (required when the xero format is on) */
  xero: z.string().regex(/^[A-Za-z0-9.-]{1,10}$/, 'expected a Xero account code such as 6910').optional(),
});

const matchSchema = z.strictObject({
  wallet: uuid.optional(),
  direction: z.enum(['send', 'receive']).optional(),
  category: z.enum(['standard', 'treasury']).optional(),
  kind: z.enum(['bolt11', 'onchain', 'bip21', 'taprootasset', 'usdbatch']).optional(),
  route: z.enum(['direct', 'swap']).optional(),
  currency: z.string().min(1).optional(),
  /** a regular expression over the payment's memo / description */
  memo: z.string().min(1).optional(),
  /** metadata key → the exact value, or `{ "matches": "<regex>" }` */
  metadata: z.record(z.string(), z.union([z.string(), z.strictObject({ matches: z.string().min(1) })])).optional(),
});

export const ruleSchema = z.strictObject({
  name: z.string().min(1),
  match: matchSchema,
  /** the counter account of the principal (revenue, expense, clearing) */
  counter: accountKey,
});

const priceSourceSchema = z.strictObject({
  /** `btc`, `usd` or `asset:<hex>`: the currency this file prices */
  currency: z.string().regex(/^(btc|usd|asset:[0-9a-f]{2,})$/, 'expected btc, usd or asset:<hex>'),
  /** CSV `timestamp,price`: books-currency units per whole unit (1 BTC, 1 asset display unit); relative to the config file */
  file: z.string().min(1),
  /** a price older than this before the movement is stale: the entry needs a price */
  maxStalenessSeconds: z.number().int().min(1).default(86_400),
});

export const journalSchema = z
  .strictObject({
    /** ISO 4217 code of the books */
    booksCurrency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD').default('USD'),
    /** decimals of the books' minor unit (2 for USD) */
    minorUnits: z.number().int().min(0).max(4).default(2),
    entryMode: z.enum(['per-payment', 'per-day-wallet']).default('per-payment'),
    /** how the wallet leg (and a rounding-line entry's every leg) is rounded to the minor unit */
    rounding: z.enum(ROUNDING_MODES).default('half_even'),
    /** allocate: fee and principal legs share the wallet leg by largest remainder; rounding-line: each leg rounded, the difference to `roundingAccount` */
    roundingStrategy: z.enum(['allocate', 'rounding-line']).default('allocate'),
    formats: z.array(z.enum(JOURNAL_FORMATS)).min(1).default([...JOURNAL_FORMATS]),
    /** entry numbers are this prefix + 12 base32 characters of a hash of the posting unit (≤ 21 characters for QuickBooks) */
    numberPrefix: z.string().regex(/^[A-Z0-9-]{0,9}$/, 'expected up to 9 of A-Z, 0-9, -').default('PX-'),
    /** Xero's mandatory tax rate name on every line */
    xeroTaxRate: z.string().min(1).default('Tax Exempt'),
    accounts: z.record(accountKey, accountSchema),
    /** wallet id → account key of its asset account; a wallet seen in the data and not listed here is an error */
    wallets: z.record(uuid, accountKey),
    counter: z.strictObject({
      send: z.strictObject({ standard: accountKey, treasury: accountKey.optional() }),
      receive: z.strictObject({ standard: accountKey, treasury: accountKey.optional() }),
    }),
    /** the owner's own transfers (treasury) between wallets: the default treasury counter account */
    transfer: accountKey,
    fees: z.strictObject({ network: accountKey, processing: accountKey }),
    /** deposits and withdrawals that name no payment (line-of-credit settlements) */
    balanceMovements: accountKey,
    roundingAccount: accountKey,
    /** period-end fair-value remeasurement (ASU 2023-08) of BTC wallets on month-end runs */
    fairValue: z.strictObject({ enabled: z.boolean().default(true), adjustment: accountKey, gainLoss: accountKey }).optional(),
    /** ordered; the first rule that matches sets the principal's counter account */
    rules: z.array(ruleSchema).default([]),
    prices: z.array(priceSourceSchema).default([]),
  })
  .superRefine((j, ctx) => {
    const known = new Set(Object.keys(j.accounts));
    const check = (key: string | undefined, path: (string | number)[]): void => {
      if (key !== undefined && !known.has(key)) ctx.addIssue({ code: 'custom', path, message: `unknown account key '${key}' (declare it under journal.accounts)` });
    };
    for (const [wallet, key] of Object.entries(j.wallets)) check(key, ['wallets', wallet]);
    check(j.counter.send.standard, ['counter', 'send', 'standard']);
    check(j.counter.send.treasury, ['counter', 'send', 'treasury']);
    check(j.counter.receive.standard, ['counter', 'receive', 'standard']);
    check(j.counter.receive.treasury, ['counter', 'receive', 'treasury']);
    check(j.transfer, ['transfer']);
    check(j.fees.network, ['fees', 'network']);
    check(j.fees.processing, ['fees', 'processing']);
    check(j.balanceMovements, ['balanceMovements']);
    check(j.roundingAccount, ['roundingAccount']);
    check(j.fairValue?.adjustment, ['fairValue', 'adjustment']);
    check(j.fairValue?.gainLoss, ['fairValue', 'gainLoss']);
    j.rules.forEach((rule, i) => {
      check(rule.counter, ['rules', i, 'counter']);
      const patterns = [rule.match.memo, ...Object.values(rule.match.metadata ?? {}).map((v) => (typeof v === 'string' ? undefined : v.matches))];
      for (const pattern of patterns) {
        if (pattern === undefined) continue;
        try {
          new RegExp(pattern, 'u');
        } catch {
          ctx.addIssue({ code: 'custom', path: ['rules', i, 'match'], message: `not a regular expression: ${pattern}` });
        }
      }
    });
    if (j.formats.includes('xero')) {
      for (const [key, account] of Object.entries(j.accounts)) {
        if (account.xero === undefined) ctx.addIssue({ code: 'custom', path: ['accounts', key, 'xero'], message: 'the xero format is on: every account needs its Xero code' });
      }
    }
    const currencies = j.prices.map((p) => p.currency);
    if (new Set(currencies).size !== currencies.length) ctx.addIssue({ code: 'custom', path: ['prices'], message: 'one price file per currency' });
  });

export type JournalConfig = Readonly<z.infer<typeof journalSchema>>;
export type JournalRule = z.infer<typeof ruleSchema>;
