/**
 * The terminal's progress (src/cli/tty-progress.ts) drawn into a fake TTY: a first line before
 * anything else, pull bars with percent and ETA over the planned streams (a denominator that does
 * not grow), log lines above the bars, and a finished — or stopped — state at the end.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { foldToWidth, pullDetail, ttyProgress } from '../../../src/cli/tty-progress.js';

function fakeTty(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  Object.assign(w, { isTTY: true, columns: 160, rows: 40, getWindowSize: () => [160, 40] });
  // eslint-disable-next-line no-control-regex -- stripping the terminal's escape codes is the point
  const text = (): string => chunks.join('').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '\n');
  return { stream: w as unknown as NodeJS.WriteStream, text };
}

const step = (stream: string, rows: number, done: boolean) => ({ stream, pages: 1, rows, duplicates: 0, done });

describe('ttyProgress', () => {
  it('says what starts, counts streams against the plan, keeps logs above the bars, ends finished', () => {
    const { stream, text } = fakeTty();
    const p = ttyProgress(stream);
    p.phase('start');
    expect(text()).toContain('▸ start: loading, opening the snapshot, taking the run lock');
    p.expect?.({ payments: 4, ledger: 4 });
    p.stream(step('payments:wallet:a', 100, true));
    p.log('a warning line\n');
    p.stream(step('payments:wallet:b', 50, false));
    p.stream(step('payments:byid-open:a', 2, true)); // re-reads by id are not among the planned payments streams
    p.stream(step('payments:wallet:b', 80, true));
    p.stop(true);
    const out = text();
    // bars redraw on a timer: the last frame is what stays on screen
    expect(out).not.toMatch(/payments .*\/[5-9] streams/);
    // a finished run counts the streams that finished, not "done · 0/1" (reads by id never report done)
    expect(out).toMatch(/by id .* done · 1 stream · 2 rows pulled/);
    expect(out.indexOf('a warning line')).toBeGreaterThan(out.indexOf('▸ start'));
    expect(out).toMatch(/payments .* done · 2 streams · 180 rows pulled/);
    expect(out.trimEnd().endsWith('✓ finished')).toBe(true);
  });

  it('folds a log line wider than the terminal into whole rows, each erased to its end', () => {
    expect(foldToWidth('abcdefghijklmnopqrstuvwxyz0123456789\n', 20)).toBe('abcdefghijklmnopqrst\nuvwxyz0123456789\n');
    expect(foldToWidth('short\n', 20)).toBe('short\n');
    expect(foldToWidth('x'.repeat(50), undefined)).toBe('x'.repeat(50));
    const chunks: string[] = [];
    const w = new Writable({ write(chunk: Buffer | string, _enc, done) { chunks.push(chunk.toString()); done(); } });
    Object.assign(w, { isTTY: true, columns: 40, rows: 40, getWindowSize: () => [40, 40] });
    const p = ttyProgress(w as unknown as NodeJS.WriteStream);
    p.stream(step('payments:wallet:a', 1, false));
    p.log(`INFO report published ${'d'.repeat(60)} findings=7\n`);
    p.stop(true);
    const raw = chunks.join('');
    // every row of the log (39 columns: one spare for the cursor) ends by erasing the rest of the line
    expect(raw).toContain(`INFO report published ${'d'.repeat(39 - 'INFO report published '.length)}\u001b[K\n`);
    expect(raw).toContain('findings=7\u001b[K\n');
  });

  it('shows percent of the planned streams and the ETA', () => {
    expect(pullDetail(3, 8, 735, 4176, 'ETA 1s')).toBe(' 37% 3/8 streams · 735 rows pulled · 4,176 rows/s · ETA 1s');
    expect(pullDetail(0, 0, 0, 0, 'ETA …')).toBe('  0% 0/0 streams · 0 rows pulled · 0 rows/s · ETA …');
  });

  it('a run that fails keeps its bars where they stopped and says so', () => {
    const { stream, text } = fakeTty();
    const p = ttyProgress(stream);
    p.expect?.({ ledger: 3 });
    p.stream(step('ledger:wallet:a', 10, true));
    p.stop();
    p.stop(true); // idempotent: the first stop wins
    const out = text();
    expect(out).not.toMatch(/ledger .* done/);
    expect(out.trimEnd().endsWith('✗ stopped before the end')).toBe(true);
  });
});
