/**
 * What the pull's evidence costs per request (not a test; docs/benchmarks.md "The evidence of the
 * pull"): `npx tsx bench/evidence-cost.ts --journal FILE [--rounds 5]`.
 *
 * FILE is the evidence journal of a real pull (`BENCH_KEEP=1 npx tsx bench/extract.ts --evidence on
 * --repeat 1 --no-warmup …` keeps it). Its request lines are replayed through exactly what the job
 * adds per request when it records evidence: the sha256 of a body of that request's size
 * (`createHash`, as src/api/client.ts's `bodyHash`), and `EvidenceLog.request` — the page fields,
 * the JSON line, the scrubber, one `writeSync` — into a new journal. The parse of the body, the
 * request itself and everything else the pull does are left out: they happen with or without the
 * evidence. Each round times the hashes alone, the lines alone, and both; the median round is
 * printed, per request and per MB of body.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiExchange } from '../src/api/client.js';
import type { LosslessJson } from '../src/api/json.js';
import { EvidenceLog } from '../src/audit/evidence-log.js';
import { SecretScrubber } from '../src/util/secret-scrubber.js';

interface Recorded {
  path: string;
  params: Array<[string, string]>;
  attempt: number;
  status: number | null;
  outcome: string;
  bytes: number;
  items?: number | null;
  next_cursor?: string | null;
  has_more?: boolean;
}

const { values } = parseArgs({ options: { journal: { type: 'string' }, rounds: { type: 'string', default: '5' } } });
if (values.journal === undefined) throw new Error('--journal FILE: the evidence journal of a pull');
const recorded = readFileSync(values.journal, 'utf8')
  .split('\n')
  .filter((l) => l.includes('"t":"request"'))
  .map((l) => JSON.parse(l) as Recorded);
const largest = recorded.reduce((m, r) => Math.max(m, r.bytes), 0);
// one buffer of random bytes; each request hashes a prefix of its own size (sha256 costs the same on any bytes)
const bytes = randomBytes(largest);
// what pageFields reads of a parsed page: the item count and the cursor fields (the pull parses the body anyway)
const bodies = recorded.map((r): LosslessJson | null => (r.items === null || r.items === undefined ? null : ({ items: new Array(r.items).fill(null), ...(r.next_cursor !== undefined ? { next_cursor: r.next_cursor } : {}), ...(r.has_more !== undefined ? { has_more: r.has_more } : {}) } as unknown as LosslessJson)));
const scrubber = new SecretScrubber(['bench-token-0123456789abcdef']);
const work = mkdtempSync(path.join(os.tmpdir(), 'payexport-evidence-cost-'));
const totalBytes = recorded.reduce((s, r) => s + r.bytes, 0);

function hashes(): string[] {
  return recorded.map((r) => createHash('sha256').update(bytes.subarray(0, r.bytes)).digest('hex'));
}

function lines(sha: readonly string[], k: number): void {
  const log = EvidenceLog.open(path.join(work, `journal-${k}.jsonl`), { run_id: 'bench', run_key: 'bench', command: 'export', window: null, resumed: false }, { scrub: (line) => scrubber.scrub(line), clock: () => new Date() });
  recorded.forEach((r, i) => {
    const exchange: ApiExchange = { path: r.path, query: r.params, attempt: r.attempt, status: r.status, outcome: r.outcome, bytes: r.bytes, sha256: sha[i] ?? null, body: bodies[i] ?? null };
    log.request(exchange);
  });
  log.end();
}

const rounds: Array<{ hashMs: number; lineMs: number; bothMs: number }> = [];
try {
  for (let k = 0; k < Number(values.rounds); k++) {
    let t = performance.now();
    const sha = hashes();
    const hashMs = performance.now() - t;
    t = performance.now();
    lines(sha, 2 * k);
    const lineMs = performance.now() - t;
    t = performance.now();
    lines(hashes(), 2 * k + 1);
    const bothMs = performance.now() - t;
    rounds.push({ hashMs, lineMs, bothMs });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const median = [...rounds].sort((a, b) => a.bothMs - b.bothMs)[Math.floor((rounds.length - 1) / 2)]!;
const mb = totalBytes / 1e6;
const result = {
  requests: recorded.length,
  bodyMB: Math.round(mb * 10) / 10,
  rounds,
  median: {
    ...median,
    hashMsPerRequest: median.hashMs / recorded.length,
    lineMsPerRequest: median.lineMs / recorded.length,
    bothMsPerRequest: median.bothMs / recorded.length,
    hashMBPerSecond: mb / (median.hashMs / 1000),
  },
  loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
};
console.log(JSON.stringify(result, null, 2));
