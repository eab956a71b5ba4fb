/**
 * Progress for people at a terminal: a line per phase, one bar per stream kind (payments, ledger,
 * summaries, reads by id) with percent and ETA over the planned streams, then one per report sheet. Under cron (no TTY) the same events become
 * a log line every few seconds instead.
 */
import cliProgress from 'cli-progress';
import type { StreamProgress } from '../extract/context.js';
import type { Progress } from '../jobs/progress.js';
import type { Logger } from '../util/log.js';

const KINDS: Record<string, string> = { payments: 'payments', ledger: 'ledger', summary: 'summaries' };

function kindOf(stream: string): string {
  const [head = stream, second = ''] = stream.split(':');
  // re-reads of single payments (open ones, orphans) are not among the planned payments streams
  if (head === 'payments' && second.startsWith('byid')) return 'by id';
  return KINDS[head] ?? head;
}

/** Totals per stream kind, from the latest progress of every stream. */
class Tally {
  private readonly latest = new Map<string, StreamProgress>();
  update(p: StreamProgress): void {
    this.latest.set(p.stream, { ...p });
  }
  totals(kind: string): { rows: number; streams: number; done: number } {
    let rows = 0;
    let streams = 0;
    let done = 0;
    for (const p of this.latest.values()) {
      if (kindOf(p.stream) !== kind) continue;
      rows += p.rows;
      streams++;
      if (p.done) done++;
    }
    return { rows, streams, done };
  }
  kinds(): string[] {
    return [...new Set([...this.latest.keys()].map(kindOf))];
  }
}

/** A pull bar's text: "37% 3/8 streams · 735 rows pulled · 4,176 rows/s · ETA 1s". */
export function pullDetail(done: number, total: number, rows: number, rowsPerSecond: number, eta: string): string {
  const n = (v: number): string => v.toLocaleString('en-US');
  const pct = Math.floor((done * 100) / Math.max(total, 1));
  return `${String(pct).padStart(3)}% ${n(done)}/${n(total)} streams · ${n(rows)} rows pulled · ${n(rowsPerSecond)} rows/s · ${eta}`;
}

const ERASE_TO_END = '\x1b[K';

/** Wide enough for every bar's label (`bills-summary`, `→ summary-check`), so the bars line up. */
const LABEL_WIDTH = 15;

/** `text` (lines ending in \n) with every line longer than `columns` cut into rows of `columns` characters. */
export function foldToWidth(text: string, columns: number | undefined): string {
  if (columns === undefined || columns < 20) return text;
  return text
    .split('\n')
    .map((row) => {
      const chars = [...row];
      if (chars.length <= columns) return row;
      const rows: string[] = [];
      for (let i = 0; i < chars.length; i += columns) rows.push(chars.slice(i, i + columns).join(''));
      return rows.join('\n');
    })
    .join('\n');
}

/** Bars on a terminal; log lines written through `log` appear above them instead of through them. */
export interface TtyProgress extends Progress {
  log(line: string): void;
}

const PHASE_WORDS: Record<string, string> = {
  start: 'loading, opening the snapshot, taking the run lock',
  discovery: 'listing environments, wallets and assets',
  pull: 'pulling payments, ledger and summaries into the snapshot',
  report: 'writing the report from the snapshot',
};

/**
 * Bars for people. A pull bar counts finished streams against the number discovery planned (the
 * dry run's "streams"), so its percent and ETA have a denominator that does not grow; rows pulled
 * ride along as a detail. Report sheets have no known size: they count rows written. Every phase
 * prints one line first, so something appears within the first second; log lines go above the bars.
 */
export function ttyProgress(stream: NodeJS.WriteStream): TtyProgress {
  const bars = new cliProgress.MultiBar(
    { stream, clearOnComplete: false, hideCursor: true, format: ' {name} {bar} {detail}', fps: 5, noTTYOutput: false, barsize: 24 },
    cliProgress.Presets.shades_grey,
  );
  const tally = new Tally();
  const started = new Map<string, number>();
  const rows = new Map<string, cliProgress.SingleBar>();
  const planned = new Map<string, number>();
  const finalDetail = new Map<string, string>();
  let state: 'idle' | 'drawing' | 'stopped' = 'idle';
  const bar = (name: string, total: number): cliProgress.SingleBar => {
    let b = rows.get(name);
    if (!b) {
      state = state === 'idle' ? 'drawing' : state;
      b = bars.create(total, 0, { name: name.padEnd(LABEL_WIDTH), detail: '' });
      rows.set(name, b);
      started.set(name, Date.now());
    }
    return b;
  };
  const rate = (name: string, value: number): number => rateSince(started.get(name), value);
  const eta = (name: string, done: number, total: number): string => etaSince(started.get(name), done, total);
  // While bars are drawn, cli-progress turns the terminal's auto-wrap off and writes log text over
  // the first bar row, clearing that row only: a log line wider than the terminal would be clipped
  // at the last column, and a second row would leave the rest of an old bar line behind it in the
  // scrollback. So log text goes above the bars folded at the terminal's width, each row erased to
  // its end (ESC [K) before the next begins.
  const above = (text: string): void => {
    // one column spare: with auto-wrap off the cursor stays ON the last column, where ESC [K would erase it
    if (state === 'drawing') bars.log(foldToWidth(text, stream.columns === undefined ? undefined : stream.columns - 1).replace(/\n/g, `${ERASE_TO_END}\n`));
    else stream.write(text);
  };
  const line = (text: string): void => above(`${text}\n`);
  const n = (v: number): string => v.toLocaleString('en-US');
  return {
    phase(name) {
      if (state === 'stopped') return;
      line(`▸ ${name}: ${PHASE_WORDS[name] ?? name}`);
    },
    log(text) {
      above(text);
    },
    expect(streams) {
      for (const [kind, total] of Object.entries(streams)) planned.set(kind, total);
    },
    stream(p) {
      if (state === 'stopped') return;
      tally.update(p);
      const kind = kindOf(p.stream);
      const t = tally.totals(kind);
      // never below what is seen: a resumed or split stream may add streams the plan did not count
      const total = Math.max(planned.get(kind) ?? t.streams, t.streams, 1);
      const b = bar(kind, total);
      if (b.getTotal() !== total) b.setTotal(total);
      b.update(t.done, { detail: pullDetail(t.done, total, t.rows, rate(kind, t.rows), eta(kind, t.done, total)) });
      // once the run finishes every stream seen has ended, whether or not it reported `done`
      // (reads by id never do): the closing line counts what finished, never "done · 0/5 streams"
      finalDetail.set(kind, `${n(t.streams)} stream${t.streams === 1 ? '' : 's'} · ${n(t.rows)} rows pulled`);
    },
    sheet(name, value) {
      if (state === 'stopped') return;
      const label = `→ ${name}`;
      // no size known before writing: the bar stays empty and the count grows
      bar(label, 0).update(0, { detail: `${n(value)} rows written · ${n(rate(label, value))} rows/s` });
      finalDetail.set(label, `${n(value)} rows written`);
    },
    stop(finished = false) {
      // idempotent, and silent when nothing was drawn (a dry run, an early error)
      if (state === 'drawing') {
        // the finished state: every bar full; a failed run keeps its bars where they stopped
        if (finished) fillBars(rows, finalDetail);
        bars.update(); // flushes log lines still buffered above the bars
        bars.stop();
        stream.write(finished ? '✓ finished\n' : '✗ stopped before the end\n');
      }
      state = 'stopped';
    },
  };
}

/** Rows (or anything) per second since a bar started. */
function rateSince(startedAt: number | undefined, value: number): number {
  const seconds = (Date.now() - (startedAt ?? Date.now())) / 1000;
  return seconds > 0 ? Math.round(value / seconds) : 0;
}

/** The time left at the pace so far, as `ETA 1m05s`; `done` once every part is in. */
function etaSince(startedAt: number | undefined, done: number, total: number): string {
  const seconds = (Date.now() - (startedAt ?? Date.now())) / 1000;
  if (done <= 0 || done >= total || seconds <= 0) return done >= total ? 'done' : 'ETA …';
  const left = Math.ceil((seconds / done) * (total - done));
  return `ETA ${left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s` : `${left}s`}`;
}

/** A finished run's bars, every one full with its closing detail. */
function fillBars(rows: ReadonlyMap<string, cliProgress.SingleBar>, finalDetail: ReadonlyMap<string, string>): void {
  for (const [name, b] of rows) {
    const total = Math.max(b.getTotal(), 1);
    b.setTotal(total);
    b.update(total, { detail: `done · ${finalDetail.get(name) ?? ''}` });
  }
}

/** Progress under cron: an info line per phase and a throttled line of totals. */
export function logProgress(log: Logger, everyMs = 5000): Progress {
  const tally = new Tally();
  let last = 0;
  return {
    phase(name) {
      // the process's CPU so far (every thread): the bench turns consecutive lines into CPU per stage
      const cpu = process.cpuUsage();
      log.info({ phase: name, cpu_ms: Math.round((cpu.user + cpu.system) / 1000) }, `phase ${name}`);
    },
    stream(p) {
      tally.update(p);
      const now = Date.now();
      if (now - last < everyMs) return;
      last = now;
      log.info(Object.fromEntries(tally.kinds().map((k) => [k, tally.totals(k)])), 'pull progress');
    },
    sheet: () => undefined,
    stop: () => undefined,
  };
}
