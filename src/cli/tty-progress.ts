/**
 * Progress for people at a terminal: one bar per stream kind (payments, ledger, summaries, reads
 * by id) with counts and rate, then one per report sheet. Under cron (no TTY) the same events become
 * a log line every few seconds instead.
 */
import cliProgress from 'cli-progress';
import type { StreamProgress } from '../extract/context.js';
import type { Progress } from '../jobs/progress.js';
import type { Logger } from '../util/log.js';

const KINDS: Record<string, string> = { payments: 'payments', ledger: 'ledger', summary: 'summaries' };

function kindOf(stream: string): string {
  const head = stream.split(':')[0] ?? stream;
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

/** Bars on a terminal; log lines written through `log` appear above them instead of through them. */
export interface TtyProgress extends Progress {
  log(line: string): void;
}

export function ttyProgress(stream: NodeJS.WriteStream): TtyProgress {
  const bars = new cliProgress.MultiBar(
    { stream, clearOnComplete: false, hideCursor: true, format: ' {name} | {value} rows | {rate} rows/s | {detail}', fps: 5, noTTYOutput: false },
    cliProgress.Presets.shades_grey,
  );
  const tally = new Tally();
  const started = new Map<string, number>();
  const rows = new Map<string, cliProgress.SingleBar>();
  let state: 'idle' | 'drawing' | 'stopped' = 'idle';
  const bar = (name: string): cliProgress.SingleBar => {
    let b = rows.get(name);
    if (!b) {
      state = state === 'idle' ? 'drawing' : state;
      b = bars.create(0, 0, { name: name.padEnd(12), rate: 0, detail: '' });
      rows.set(name, b);
      started.set(name, Date.now());
    }
    return b;
  };
  const rate = (name: string, value: number): number => {
    const seconds = (Date.now() - (started.get(name) ?? Date.now())) / 1000;
    return seconds > 0 ? Math.round(value / seconds) : 0;
  };
  return {
    phase: () => undefined,
    log(line) {
      if (state === 'drawing') bars.log(line);
      else stream.write(line);
    },
    stream(p) {
      if (state === 'stopped') return;
      tally.update(p);
      const kind = kindOf(p.stream);
      const t = tally.totals(kind);
      bar(kind).update(t.rows, { rate: rate(kind, t.rows), detail: `${t.done}/${t.streams} streams done` });
    },
    sheet(name, value) {
      if (state === 'stopped') return;
      const label = `→ ${name}`;
      bar(label).update(value, { rate: rate(label, value), detail: 'written' });
    },
    stop() {
      // idempotent, and silent when nothing was drawn (a dry run, an early error)
      if (state === 'drawing') {
        bars.update(); // flushes log lines still buffered above the bars
        bars.stop();
      }
      state = 'stopped';
    },
  };
}

/** Progress under cron: an info line per phase and a throttled line of totals. */
export function logProgress(log: Logger, everyMs = 5000): Progress {
  const tally = new Tally();
  let last = 0;
  return {
    phase(name) {
      log.info({ phase: name }, `phase ${name}`);
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
