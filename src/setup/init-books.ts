/**
 * The books step of `init`: whether to set up journal entries, lots and prices (yes by default —
 * without them a real account's month-end has no Journal, Lots or Crypto assets sheet), the books'
 * currency, and the opening-lots template read from the service (opening-lots-template.ts). The
 * sections themselves are books-template.ts; the file is written with the config, never over one
 * that exists (it holds the costs an accountant wrote).
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Credential } from '../config/load.js';
import type { WalletRow } from '../model/rows.js';
import { ensureFolderSync } from '../util/ensure-folder.js';
import { usageError } from '../util/errors.js';
import type { SecretScrubber } from '../util/secret-scrubber.js';
import { booksSections } from './books-template.js';
import type { Questions } from './init-questions.js';
import { openingLines, openingLotsText, type OpeningLine } from './opening-lots-template.js';

export const OPENING_LOTS_FILE = 'opening-lots.csv';

export interface BooksPlan {
  sections: ReturnType<typeof booksSections>;
  booksCurrency: string;
  /** the opening-lots file as the person reads it (relative to the working folder) */
  openingLotsShown: string;
  openingLotsPath: string;
  lines: OpeningLine[];
  /** the file exists: it is kept as it is */
  kept: boolean;
  /** the earliest first movement (UTC day) of the wallets the lots keep: their prices reach back to it */
  firstMovement: string | null;
}

export interface BooksInput {
  questions: Questions;
  given: { books: boolean | undefined; booksCurrency: string | undefined };
  configPath: string;
  cwd: string;
  wallets: readonly WalletRow[];
  access: { baseUrl: string; credential: Credential; organizationId: string; scrubber: SecretScrubber };
}

export async function planBooks(input: BooksInput): Promise<BooksPlan | null> {
  const { questions } = input;
  const wanted = await questions.yesNo({
    text: 'Set up the books: journal entries, lots (first in, first out) and prices fetched for them',
    what: 'books answer',
    defaultAnswer: 'yes',
    given: [{ value: input.given.books === undefined ? undefined : input.given.books ? 'yes' : 'no', name: input.given.books === false ? '--no-books' : '--books' }],
  });
  if (!wanted) return null;
  const booksCurrency = await questions.until({ text: "Books currency (ISO 4217: the currency of the accountant's books)", what: 'books currency', defaultAnswer: 'USD', given: [{ value: input.given.booksCurrency, name: '--books-currency' }] }, (a) => {
    const code = a.value.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) throw usageError('bad_option', `${a.said} '${a.value.slice(0, 20)}' is not a currency code: expected three letters such as USD or EUR`);
    return code;
  });
  const configDir = dirname(resolve(input.cwd, input.configPath));
  const openingLotsPath = join(configDir, OPENING_LOTS_FILE);
  const lines = await openingLines({ ...input.access, wallets: input.wallets, booksCurrency });
  return {
    sections: booksSections(input.wallets, { booksCurrency, openingLotsFile: OPENING_LOTS_FILE }),
    booksCurrency,
    openingLotsShown: relative(input.cwd, openingLotsPath) || OPENING_LOTS_FILE,
    openingLotsPath,
    lines,
    kept: existsSync(openingLotsPath),
    firstMovement: lines.map((l) => l.firstAt).filter((t): t is string => t !== null).sort()[0]?.slice(0, 10) ?? null,
  };
}

/** Writes the opening-lots template (unless one exists); the lines a person reads about it. */
export function writeOpeningLots(plan: BooksPlan): string[] {
  if (plan.kept) return [`Kept ${plan.openingLotsShown} as it is (it exists; remove it for a new template)`];
  ensureFolderSync(dirname(plan.openingLotsPath));
  writeFileSync(plan.openingLotsPath, openingLotsText(plan.lines), { mode: 0o644 });
  const rows = plan.lines.filter((l) => l.row !== null).length;
  return [
    `Wrote ${plan.openingLotsShown} (${rows} opening row(s), cost unknown: write what the coins cost, and when they were bought, before closing a month for real)`,
    ...plan.lines.map((l) => `  ${l.wallet.name}: ${l.note}`),
  ];
}

/** Takes back a template this run wrote (the config that would name it did not load). */
export function removeOpeningLots(plan: BooksPlan): void {
  if (!plan.kept) rmSync(plan.openingLotsPath, { force: true });
}
