/**
 * The specific-identification file (JSON), validated at the edge like the config (zod strict;
 * a bad file is exit 78):
 *
 *   { "standingOrders":  [{ "wallet": "<uuid>", "from": "2025-01-01", "order": "hifo" }],
 *     "identifications": [{ "wallet": "<uuid>", "disposal": "captured:<entry id>",
 *                           "recordedAt": "2026-10-01T09:00:00Z", "lots": ["LOT-…"] }] }
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { toUtcInstant } from '../model/instant.js';
import { configError } from '../util/errors.js';
import type { Identifications } from './identification.js';

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'expected a UUID');
const instant = z.string().transform((s, ctx) => {
  const at = toUtcInstant(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  if (at === null) ctx.addIssue({ code: 'custom', message: 'expected YYYY-MM-DD or an RFC 3339 time' });
  return at ?? '';
});

const fileSchema = z.strictObject({
  standingOrders: z.array(z.strictObject({ wallet: uuid, from: instant, order: z.enum(['fifo', 'lifo', 'hifo']) })).default([]),
  identifications: z.array(z.strictObject({ wallet: uuid, disposal: z.string().regex(/^[a-z_]+:\S+$/, 'expected <entry_type>:<entry id>'), recordedAt: instant, lots: z.array(z.string().regex(/^LOT-[A-Z2-7]{12}$/, 'expected a lot id from lots.csv')).min(1) })).default([]),
});

export function parseIdentifications(text: string, shownPath: string): Identifications {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw configError('identifications_invalid', `identification file '${shownPath}' is not JSON`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError('identifications_invalid', `identification file '${shownPath}': ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return {
    standingOrders: parsed.data.standingOrders.map((s) => ({ walletId: s.wallet.toLowerCase(), from: s.from, order: s.order })),
    identifications: parsed.data.identifications.map((i) => ({ walletId: i.wallet.toLowerCase(), disposalRef: i.disposal, recordedAt: i.recordedAt, lotIds: i.lots })),
  };
}

export function loadIdentifications(path: string, shownPath: string): Identifications {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw configError('identifications_unreadable', `cannot read identification file '${shownPath}': ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseIdentifications(text, shownPath);
}
