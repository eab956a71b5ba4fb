/**
 * The `lots` config section: the crypto subledger (docs/lots.md). Lots are kept for every wallet
 * the journal maps whose currency is not the books' currency; this section says, per wallet, which
 * cost-basis method applies from which date (default fifo), and where the opening-lots file and the
 * specific-identification file are (paths relative to the config file); which withdrawals and
 * deposits move units to or from the company's own off-service wallets (`custody`); what the US tax
 * files need (`tax`). Needs `journal`.
 */
import { z } from 'zod';
import { taxSchema } from './tax-schema.js';

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
const dateOrInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2}))?$/, 'expected YYYY-MM-DD or an RFC 3339 time');

export const LOT_METHOD_NAMES = ['fifo', 'lifo', 'hifo', 'specific', 'average'] as const;

const methodPeriod = z.strictObject({
  method: z.enum(LOT_METHOD_NAMES),
  /** the method applies to disposals from this date (UTC midnight) or instant on */
  from: dateOrInstant,
});

const custodyId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'expected a custody id such as cold-vault (a-z, 0-9, -)');
const accountKey = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected an account key such as cold_storage');

/** A named off-service wallet of the company (cold storage, a hardware wallet): lots moved there keep their dates and cost. */
const custodySchema = z.strictObject({
  /** how files and sheets name it */
  name: z.string().min(1).max(80),
  /** the journal account key (journal.accounts) its moves post to; default: journal.balanceMovements */
  account: accountKey.optional(),
  /** the order its lots come back in when deposited again (default fifo) */
  methods: z.array(methodPeriod).min(1).optional(),
});

/** How balance movements that name no payment are classified: by wallet, or one entry by its ledger ref (which wins). */
const movementRule = <T extends readonly [string, ...string[]]>(entryType: string, treatments: T) =>
  z
    .strictObject({
      /** every such movement of this wallet */
      wallet: uuid.optional(),
      /** one movement: `<entry type>:<entry id>` as lot-reliefs.csv names it */
      entry: z.string().regex(new RegExp(`^${entryType}:\\S+$`), `expected ${entryType}:<entry id>`).optional(),
      treatment: z.enum(treatments),
      /** with own_custody: the lots.custody id the units go to or come from */
      custody: custodyId.optional(),
    })
    .superRefine((r, ctx) => {
      if ((r.wallet === undefined) === (r.entry === undefined)) ctx.addIssue({ code: 'custom', message: 'name either a wallet or an entry' });
      if ((r.treatment === 'own_custody') !== (r.custody !== undefined)) ctx.addIssue({ code: 'custom', path: ['custody'], message: r.treatment === 'own_custody' ? 'own_custody needs the lots.custody id of the wallet' : 'custody is for own_custody only' });
    });

/**
 * A contractual restriction on selling crypto assets the company holds (ASC 350-60-50-5): the
 * holdings of one wallet (a service wallet's UUID, or an own custody wallet's id), of one currency
 * or all.
 */
const restrictionSchema = z.strictObject({
  /** a tracked wallet's UUID, or the id of a lots.custody wallet */
  wallet: z.union([uuid, custodyId]),
  /** btc or asset:<hex>; default: every currency the wallet holds */
  currency: z.string().regex(/^(btc|asset:[0-9a-f]+)$/, 'expected btc or asset:<hex>').optional(),
  /** what the restriction is (a lock-up, a pledge as collateral, …) */
  nature: z.string().trim().min(1).max(300),
  /** the last day it applies (YYYY-MM-DD); absent: no fixed end (say so in `lapse`) */
  until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD').optional(),
  /** the circumstances that could make it lapse */
  lapse: z.string().trim().min(1).max(300),
});

/** What the Crypto assets note discloses beyond the figures (docs/lots.md "The Crypto assets sheet"). */
const disclosureSchema = z.strictObject({
  /** the income-statement line in which the crypto assets' gains and losses are presented (ASC 350-60-50-2) */
  incomeStatementLine: z.string().trim().min(1).max(120).default('Gain (loss) on crypto assets, net'),
  /** contractual sale restrictions (ASC 350-60-50-5): "none", or each one; absent, the note and a warning say it was not stated */
  restrictions: z.union([z.literal('none'), z.array(restrictionSchema).min(1)]).optional(),
  /** a fair value whose price is older than this at the period's end is a warning (lots.price_stale) */
  priceMaxAgeSeconds: z.number().int().positive().default(86_400),
});

export const lotsSchema = z
  .strictObject({
    /** the reporting entity's name, for the title of the Crypto assets note (default: the organization id) */
    entity: z.string().trim().min(1).max(200).optional(),
    /** wallet id → its methods by effective date; a tracked wallet not listed is fifo */
    wallets: z.record(uuid, z.strictObject({ methods: z.array(methodPeriod).min(1) })).default({}),
    /** CSV `wallet_id,currency,acquired_at,units_base,cost[,ref]`: the basis of balances held before the snapshot's first event, and of deposits */
    openingLots: z.string().min(1).optional(),
    /** JSON `{standingOrders, identifications}` for wallets on `specific` */
    identifications: z.string().min(1).optional(),
    /** the company's own off-service wallets, by id */
    custody: z.record(custodyId, custodySchema).default({}),
    /** `withdrawn` entries: own_custody (the lots move to a custody wallet, no gain) or disposal; unclassified = disposal and a warning */
    withdrawals: z.array(movementRule('withdrawn', ['own_custody', 'disposal'] as const)).default([]),
    /** `deposited` entries: own_custody (the lots come back from a custody wallet with their basis) or external (basis from the opening-lots file, the default) */
    deposits: z.array(movementRule('deposited', ['own_custody', 'external'] as const)).default([]),
    /** the US tax files: Form 8949's boxes, Forms 1099-DA (tax-schema.ts); absent = their defaults */
    tax: taxSchema.optional(),
    /** the note's disclosures beyond the figures: the income-statement line, restrictions, the age a price may have */
    disclosure: disclosureSchema.optional(),
  })
  .superRefine((l, ctx) => {
    const rules = [...l.withdrawals.map((r, i) => ({ r, path: ['withdrawals', i, 'custody'] })), ...l.deposits.map((r, i) => ({ r, path: ['deposits', i, 'custody'] }))];
    for (const { r, path } of rules) if (r.custody !== undefined && l.custody[r.custody] === undefined) ctx.addIssue({ code: 'custom', path, message: `unknown custody id '${r.custody}' (declare it under lots.custody)` });
    const restrictions = Array.isArray(l.disclosure?.restrictions) ? l.disclosure.restrictions : [];
    restrictions.forEach((r, i) => {
      if (!uuid.safeParse(r.wallet).success && l.custody[r.wallet] === undefined) ctx.addIssue({ code: 'custom', path: ['disclosure', 'restrictions', i, 'wallet'], message: `unknown wallet '${r.wallet}' (a tracked wallet's UUID or a lots.custody id)` });
    });
    // one rule per wallet and per entry: two would leave the treatment to their order
    for (const [name, list] of [['withdrawals', l.withdrawals], ['deposits', l.deposits]] as const) {
      const seen = new Set<string>();
      list.forEach((r, i) => {
        const key = r.entry ?? (r.wallet ?? '').toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [name, i], message: `a second rule for ${r.entry ?? `wallet ${r.wallet ?? ''}`}` });
        seen.add(key);
      });
    }
  });

export type LotsConfig = Readonly<z.infer<typeof lotsSchema>>;
export type LotsDisclosure = z.infer<typeof disclosureSchema>;

/** The section's disclosure settings, its defaults filled in (a config given as an object in code may leave it out). */
export function lotsDisclosure(config: Pick<LotsConfig, 'disclosure'>): LotsDisclosure {
  return config.disclosure ?? disclosureSchema.parse({});
}
