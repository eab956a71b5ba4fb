import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shardJournals } from '../../../src/jobs/shard-evidence.js';
import type { Logger } from '../../../src/util/log.js';

/**
 * Which journals a report after sharded pulls copies in (docs/audit.md#sharded-pulls): the shards
 * of its organization and window under its output root, in shard order, of the shard count the
 * newest journal has; other organizations, windows, unsharded runs and an older count left out; a
 * shard whose journal is not there, or whose pull did not end, named in a warning.
 */

const base = mkdtempSync(join(tmpdir(), 'payexport-shard-evidence-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const ORG = 'A817E325-9956-4402-9A26-82330E1266D6';
const WINDOW = { from: '2026-10-01T04:00:00.000000Z', to: '2026-11-01T04:00:00.000000Z', tz: 'America/New_York' };

function journal(root: string, name: string, run: Record<string, unknown>, ended = true): void {
  const dir = join(root, '.audit', 'runs');
  mkdirSync(dir, { recursive: true });
  const lines = [{ t: 'run', schema_version: 1, run_id: name, run_key: name, command: 'export', window: WINDOW, resumed: false, organization_id: ORG.toLowerCase(), at: '2026-11-02T10:00:00.000Z', ...run }, { t: 'request', run: name }, ...(ended ? [{ t: 'end', run: name, requests: 1, retries: 0, bytes: 0 }] : [])];
  writeFileSync(join(dir, `${name}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

function recorder(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { log: { warn: (_fields: unknown, message: string) => warnings.push(message) } as unknown as Logger, warnings };
}

describe('shardJournals', () => {
  it("takes the organization's shards of the window, in shard order, of the newest shard count", async () => {
    const root = join(base, 'books');
    journal(root, 'export-b', { shard: '1/3' });
    journal(root, 'export-a', { shard: '2/3' });
    journal(root, 'export-c', { shard: '0/3' });
    journal(root, 'older-count', { shard: '0/2', at: '2026-11-01T10:00:00.000Z' });
    journal(root, 'other-org', { shard: '0/3', organization_id: '11111111-1111-4111-8111-111111111111' });
    journal(root, 'other-window', { shard: '0/3', window: { ...WINDOW, to: '2026-10-15T04:00:00.000000Z' } });
    journal(root, 'unsharded', { shard: null });
    journal(root, 'before-shards-were-recorded', {});
    writeFileSync(join(root, '.audit', 'runs', 'not-json.jsonl'), 'garbage\n');
    const { log, warnings } = recorder();
    const found = await shardJournals(root, ORG, WINDOW, log);
    expect(found.map((f) => f.slice(join(root, '.audit', 'runs').length + 1))).toEqual(['export-c.jsonl', 'export-b.jsonl', 'export-a.jsonl']);
    expect(warnings).toEqual([]);
  });

  it('names a shard whose evidence is not under the root, and one whose pull did not end', async () => {
    const root = join(base, 'partial');
    journal(root, 'zero', { shard: '0/3' }, false);
    journal(root, 'two', { shard: '2/3' });
    const { log, warnings } = recorder();
    expect((await shardJournals(root, ORG, WINDOW, log)).length).toBe(2);
    expect(warnings).toEqual([
      `the evidence of shard(s) 1/3 is not under ${join(root, '.audit', 'runs')}: their requests are not on record in the folder (run the shards with this output root)`,
      "a shard's pull did not finish: its evidence ends without an end line, and payexport verify will say so",
    ]);
  });

  it('a root without journals: none, and no warning', async () => {
    const { log, warnings } = recorder();
    expect(await shardJournals(join(base, 'empty'), ORG, WINDOW, log)).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
