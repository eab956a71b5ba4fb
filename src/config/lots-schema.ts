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
  })
  .superRefine((l, ctx) => {
    const rules = [...l.withdrawals.map((r, i) => ({ r, path: ['withdrawals', i, 'custody'] })), ...l.deposits.map((r, i) => ({ r, path: ['deposits', i, 'custody'] }))];
    for (const { r, path } of rules) if (r.custody !== undefined && l.custody[r.custody] === undefined) ctx.addIssue({ code: 'custom', path, message: `unknown custody id '${r.custody}' (declare it under lots.custody)` });
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
