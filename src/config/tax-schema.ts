/**
 * `lots.tax`: what the US tax files need beyond the lots (docs/tax.md). Form 8949's box of a
 * digital-asset disposal depends on whether a Form 1099-DA reported it and whether that form
 * reported basis; payexport cannot see the forms a broker sent, so the configuration says it — for
 * the account as a whole and per wallet — and, when the broker's data is at hand, the Form 1099-DA
 * CSV files to reconcile. `form8949: false` turns the US tax files off (books kept outside the US,
 * where the `average` method is allowed).
 */
import { z } from 'zod';

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');

/**
 * Whether a Form 1099-DA (or substitute statement) reports a wallet's disposals, and with basis
 * (its box 2 checked): boxes G/J, H/K, or I/L when none is received (Instructions for Form 8949).
 */
export const FORM_1099DA_RECEIPTS = ['none', 'basis_reported', 'basis_not_reported'] as const;
export type Form1099DAReceipt = (typeof FORM_1099DA_RECEIPTS)[number];

const brokerFile = z.strictObject({
  /** the broker's Form 1099-DA data: CSV with the form's boxes (docs/tax.md), path relative to the config file */
  file: z.string().min(1),
  /** the broker's name, for the findings and the statement */
  broker: z.string().trim().min(1).max(80),
  /** the wallets whose disposals the forms report */
  wallets: z.array(uuid).min(1),
});

export const taxSchema = z.strictObject({
  /** write Form 8949, its totals, the statement and the import files (default true) */
  form8949: z.boolean().default(true),
  /** the identifying number printed on the Form 8949 statement beside the entity's name (an EIN or SSN as the return shows it) */
  identifyingNumber: z.string().regex(/^[0-9-]{9,11}$/, 'expected the digits of an EIN or SSN, dashes allowed').optional(),
  /** Forms 1099-DA received for the account's wallets; default none (box I or L) */
  form1099DA: z.enum(FORM_1099DA_RECEIPTS).default('none'),
  /** per wallet, over the account's */
  wallets: z.record(uuid, z.strictObject({ form1099DA: z.enum(FORM_1099DA_RECEIPTS) })).default({}),
  /** the brokers' Form 1099-DA data to reconcile with the disposals */
  forms1099DA: z.array(brokerFile).default([]),
});

export type TaxConfig = Readonly<z.infer<typeof taxSchema>>;
