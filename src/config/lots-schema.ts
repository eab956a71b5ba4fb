/**
 * The `lots` config section: the crypto subledger (docs/lots.md). Lots are kept for every wallet
 * the journal maps whose currency is not the books' currency; this section says, per wallet, which
 * cost-basis method applies from which date (default fifo), and where the opening-lots file and the
 * specific-identification file are (paths relative to the config file). Needs `journal`.
 */
import { z } from 'zod';

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
const dateOrInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2}))?$/, 'expected YYYY-MM-DD or an RFC 3339 time');

export const LOT_METHOD_NAMES = ['fifo', 'lifo', 'hifo', 'specific', 'average'] as const;

const methodPeriod = z.strictObject({
  method: z.enum(LOT_METHOD_NAMES),
  /** the method applies to disposals from this date (UTC midnight) or instant on */
  from: dateOrInstant,
});

export const lotsSchema = z.strictObject({
  /** the reporting entity's name, for the title of the Crypto assets note (default: the organization id) */
  entity: z.string().trim().min(1).max(200).optional(),
  /** wallet id → its methods by effective date; a tracked wallet not listed is fifo */
  wallets: z.record(uuid, z.strictObject({ methods: z.array(methodPeriod).min(1) })).default({}),
  /** CSV `wallet_id,currency,acquired_at,units_base,cost[,ref]`: the basis of balances held before the snapshot's first event, and of deposits */
  openingLots: z.string().min(1).optional(),
  /** JSON `{standingOrders, identifications}` for wallets on `specific` */
  identifications: z.string().min(1).optional(),
});

export type LotsConfig = Readonly<z.infer<typeof lotsSchema>>;
