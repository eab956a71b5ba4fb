import type { SummaryBucketRow } from '../../model/rows.js';
import { escapeText } from '../encoding/text-escape.js';

/**
 * Which summary call a stored bucket came from, beside its environment: a wallet summary is its
 * wallet's own (endpoint 15), everything else belongs to the environment summary (endpoint 14:
 * the environment total and its lines of credit). Each is pulled as its own stream, possibly by
 * another run (a resumed run, a shard), so "the newest pull" and "a rewrite replaces" are decided
 * per (environment_id, source), never per environment alone.
 */
export function summarySourceSql(alias: string): string {
  return `CASE WHEN ${alias}.scope = 'wallet' THEN ${alias}.scope_id ELSE '' END`;
}

/** The stored (escaped) (environment_id, source) of a row, as `summarySourceSql` computes it. */
export function summarySource(row: SummaryBucketRow): [string, string] {
  return [escapeText(row.environment_id), row.scope === 'wallet' ? escapeText(row.scope_id) : ''];
}
