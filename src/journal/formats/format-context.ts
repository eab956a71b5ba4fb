/**
 * What every journal writer needs beside the entries: account names per target, the books'
 * currency and decimals, and the display of source amounts.
 */
import type { JournalConfig } from '../../config/journal-schema.js';
import { formatBase } from '../../money/format.js';
import type { Display } from '../display.js';

export interface FormatContext {
  config: JournalConfig;
  display: Display;
  /** the period label, for titles */
  period: string;
  /** YYYY-MM-DD: accounts are opened on this date (the window's first local day) */
  openDate: string;
  /** the source commodities that may appear (SATS, USD, assets) and their decimals */
  commodities: ReadonlyArray<{ symbol: string; decimals: number }>;
}

export function ledgerName(ctx: FormatContext, key: string): string {
  const account = ctx.config.accounts[key];
  if (account === undefined) throw new Error(`unknown account key ${key}`);
  return account.ledger;
}

export function qboName(ctx: FormatContext, key: string): string {
  const account = ctx.config.accounts[key];
  if (account === undefined) throw new Error(`unknown account key ${key}`);
  return account.qbo ?? account.ledger;
}

export function xeroCode(ctx: FormatContext, key: string): string {
  const code = ctx.config.accounts[key]?.xero;
  if (code === undefined) throw new Error(`account ${key} has no Xero code`);
  return code;
}

/** Books minor units as a plain decimal (`963` → `9.63`). */
export function books(ctx: FormatContext, minor: bigint): string {
  return formatBase(minor, ctx.config.minorUnits);
}

/** Text safe inside a double-quoted Beancount string or an hledger description: one line, no quotes or comment marks. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001F\u007F]+/g, ' ').replace(/["\\|]/g, "'").replace(/;/g, ',').trim();
}
