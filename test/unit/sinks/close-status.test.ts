import { describe, expect, it } from 'vitest';
import { closeStatus } from '../../../src/sinks/close-status.js';

const base = { closing: true, allowOpen: false, closedBefore: false, openItems: 0, period: '2026-10' };

describe('closeStatus', () => {
  it('closed: no open items', () => {
    expect(closeStatus(base)).toEqual({ state: 'closed', open_items: 0, words: 'Closed: 2026-10 is recorded as closed, with no open items.' });
  });

  it('closed with --allow-open, counting the items carried', () => {
    expect(closeStatus({ ...base, allowOpen: true, openItems: 1_204 })).toMatchObject({ state: 'closed_with_open_items', open_items: 1_204, words: 'Closed with 1,204 open items carried into the next period: payments not yet completed, failed or expired (open-items.csv).' });
  });

  it('not closed: says why and names open-items.csv', () => {
    const s = closeStatus({ ...base, openItems: 1 });
    expect(s.state).toBe('not_closed');
    expect(s.words).toMatch(/^Not closed: 1 open item \(.*open-items\.csv\)\. Rerun when they settle, or pass --allow-open/);
  });

  it('a rebuild of a month closed earlier says what the closing run said', () => {
    expect(closeStatus({ ...base, closing: false, closedBefore: true, openItems: 3 })).toEqual(closeStatus({ ...base, allowOpen: true, openItems: 3 }));
    expect(closeStatus({ ...base, closing: false, closedBefore: true })).toEqual(closeStatus(base));
  });

  it('an export or nightly is not a closing run', () => {
    expect(closeStatus({ ...base, closing: false, openItems: 2 })).toMatchObject({ state: 'not_a_closing_run', open_items: 2 });
  });
});
