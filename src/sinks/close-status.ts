/**
 * Whether the period is closed, in words a controller signs off on: the Overview, manifest.json and
 * the closing terminal summary all print this one value, so they cannot disagree.
 *
 * The words depend only on what the snapshot records (closed or not, open items at the window's
 * end), never on which command wrote the files, so `payexport report` rebuilding a closed month
 * renders the same Overview as the month-end run that closed it.
 */
export type CloseState = 'closed' | 'closed_with_open_items' | 'not_closed' | 'not_a_closing_run';

export interface CloseStatus {
  state: CloseState;
  /** payments of the window not yet completed, failed or expired (open-items.csv) */
  open_items: number;
  /** one sentence for people */
  words: string;
}

export interface CloseInput {
  /** this run closes the period (month-end) */
  closing: boolean;
  allowOpen: boolean;
  /** the snapshot already records the period as closed */
  closedBefore: boolean;
  openItems: number;
  period: string;
}

const items = (n: number): string => `${n.toLocaleString('en-US')} open item${n === 1 ? '' : 's'}`;

export function closeStatus(input: CloseInput): CloseStatus {
  const n = input.openItems;
  const closed = input.closedBefore || (input.closing && (n === 0 || input.allowOpen));
  if (closed && n === 0) return { state: 'closed', open_items: 0, words: `Closed: ${input.period} is recorded as closed, with no open items.` };
  if (closed) {
    return { state: 'closed_with_open_items', open_items: n, words: `Closed with ${items(n)} carried into the next period: payments not yet completed, failed or expired (open-items.csv).` };
  }
  if (input.closing) {
    return {
      state: 'not_closed',
      open_items: n,
      words: `Not closed: ${items(n)} (payments not yet completed, failed or expired, listed in open-items.csv). Rerun when they settle, or pass --allow-open to close and carry them.`,
    };
  }
  return { state: 'not_a_closing_run', open_items: n, words: `Not closed by this run: it reports the window only (payexport month-end closes a month). ${items(n)} at the window's end (open-items.csv).` };
}
