import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/util/shard.js';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { dropSchemas, probePostgres, uniqueSchemaName } from '../support/cli/pg.js';
import { startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';

/**
 * Scale-out: three `export --shard K/3` processes fill one schema at the same time, one `report`
 * builds the files; they must equal, byte for byte, the files of one unsharded `export` into
 * another schema. The report stage may not depend on which run pulled what. The shards' evidence
 * (docs/audit.md#sharded-pulls) is kept under the output root and taken into the report's folder,
 * where `verify --chain` recomputes it.
 */

const pg = await probePostgres();
const ws = workspace('shard');
const sharded = uniqueSchemaName('sharded');
const single = uniqueSchemaName('single');
let sim: TestSim;

describe.skipIf(pg.url === null)(`--shard K/N${pg.skipReason === null ? '' : ` (skipped: ${pg.skipReason})`}`, () => {
  beforeAll(async () => {
    assertBuilt();
    sim = await startTestSim({ seed: 11, scale: 600 });
  });

  afterAll(async () => {
    await sim?.close();
    if (pg.url) await dropSchemas(pg.url, [sharded, single]);
    ws.remove();
  });

  it('3 shard processes + report == one unsharded export (CSV and XLSX, byte for byte)', async () => {
    const cwd = ws.fresh('runs');
    const env = { ...sim.env('token'), DATABASE_URL: pg.url! };
    const window = ['--from', '2026-10-01', '--to', '2026-10-31'];

    // Shards 0 and 1 by flag, shard 2 the way a Kubernetes Indexed Job names it.
    const shardRuns = await Promise.all(
      [0, 1, 2].map((k) =>
        k < 2
          ? runCli(['export', ...window, '--schema', sharded, '--out', 'sharded', '--shard', `${k}/3`], { cwd, env })
          : runCli(['export', ...window, '--schema', sharded, '--out', 'sharded'], { cwd, env: { ...env, JOB_COMPLETION_INDEX: '2', PAYEXPORT_SHARDS: '3' } }),
      ),
    );
    const expected = [0, 1, 2].map((k) => sim.sim.wallets.filter((w) => shardOf(w.id, 3) === k).length);
    shardRuns.forEach((result, k) => {
      expect(result.code, describeRun([`shard ${k}/3`], result)).toBe(0);
      expect(result.stdout).toContain(`pulled shard ${k}/3: ${expected[k]} wallet(s). Build the files with: payexport report --organization ${sim.sim.organizationId} --from 2026-10-01 --to 2026-10-31 --job export`);
    });
    expect(expected.reduce((a, b) => a + b, 0)).toBe(sim.sim.wallets.length);
    // a shard writes no report, only the evidence of its pull, under the output root for the report to take in
    expect(readdirSync(join(cwd, 'sharded'), { recursive: true }).sort()).toEqual(['.audit', join('.audit', 'runs'), ...readdirSync(join(cwd, 'sharded', '.audit', 'runs')).map((f) => join('.audit', 'runs', f))].sort());
    expect(readdirSync(join(cwd, 'sharded', '.audit', 'runs'))).toHaveLength(3);

    const reportArgs = ['report', ...window, '--job', 'export', '--schema', sharded, '--out', 'sharded'];
    const report = await runCli(reportArgs, { cwd, env });
    const exportArgs = ['export', ...window, '--schema', single, '--out', 'single'];
    const whole = await runCli(exportArgs, { cwd, env });
    // Reconciliation of the simulated data may still find exceptions (65); both must agree on them.
    expect([0, 65], describeRun(reportArgs, report)).toContain(report.code);
    expect(whole.code, describeRun(exportArgs, whole)).toBe(report.code);

    const a = join(cwd, 'sharded/export/2026-10-01_2026-10-31');
    const b = join(cwd, 'single/export/2026-10-01_2026-10-31');
    // What describes the run, not the books: the manifest (run id, command, times, request counts),
    // its signature, and the evidence of a pull (the report pulled nothing; docs/audit.md)
    const RUN_RECORD = new Set(['manifest.json', 'manifest.json.sig', 'evidence.jsonl']);
    const books = (dir: string): string[] => readdirSync(dir).filter((f) => !RUN_RECORD.has(f)).sort();
    const files = books(b);
    expect(books(a)).toEqual(files);
    expect(readdirSync(b)).toEqual(expect.arrayContaining(['manifest.json', 'manifest.json.sig', 'evidence.jsonl']));
    expect(files).toEqual(expect.arrayContaining(['payments.csv', 'ledger.csv', 'fees.csv', 'balances.csv', 'summary-check.csv', 'exceptions.csv', 'open-items.csv', 'report.xlsx']));
    for (const file of files) {
      expect(readFileSync(join(a, file)).equals(readFileSync(join(b, file))), `${file} differs`).toBe(true);
    }
    // the report holds the shards' evidence, in shard order, each shard's pull whole; verify --chain recomputes it
    const evidence = readFileSync(join(a, 'evidence.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    const runs = evidence.filter((l) => l['t'] === 'run');
    expect(runs.map((l) => l['shard'])).toEqual(['0/3', '1/3', '2/3']);
    for (const run of runs) {
      const requests = evidence.filter((l) => l['t'] === 'request' && l['run'] === run['run_id']).length;
      expect(evidence.find((l) => l['t'] === 'end' && l['run'] === run['run_id'])?.['requests']).toBe(requests);
      expect(requests).toBeGreaterThan(0);
    }
    expect(readdirSync(join(cwd, 'sharded', '.audit', 'runs')), 'the journals are in the folder now').toEqual([]);
    const verified = await runCli(['verify', '--chain', 'sharded'], { cwd, env: {} });
    expect(verified.code, describeRun(['verify', '--chain', 'sharded'], verified)).toBe(0);
    // the audit pack's README counts each shard's requests against its end line, as written
    const packArgs = ['audit-pack', 'sharded/export/2026-10-01_2026-10-31', '--archive', 'pack.tar.gz'];
    const packed = await runCli(packArgs, { cwd, env: {} });
    expect(packed.code, describeRun(packArgs, packed)).toBe(0);
    mkdirSync(join(cwd, 'pack'));
    execFileSync('tar', ['xzf', join(cwd, 'pack.tar.gz'), '-C', join(cwd, 'pack')]);
    const top = join(cwd, 'pack', readdirSync(join(cwd, 'pack'))[0]!);
    const step = readFileSync(join(top, 'README.txt'), 'utf8').split('\n').filter((l) => l.startsWith('$ ') && l.includes('requests on record'));
    expect(step).toHaveLength(1);
    const said = [...execFileSync('bash', ['-c', step[0]!.slice(2)], { cwd: top }).toString().matchAll(/(\d+) requests on record of run \S+; its end line says (\d+)/g)];
    expect(said.map(([, counted, end]) => counted === end)).toEqual([true, true, true]);
    type Manifest = { control_totals: unknown; checks: unknown; files: Array<{ path: string; sha256: string; rows: number }> };
    const [ma, mb] = [a, b].map((dir) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest);
    expect(ma!.control_totals).toEqual(mb!.control_totals);
    expect(ma!.checks).toEqual(mb!.checks);
    expect(ma!.files.filter((f) => !RUN_RECORD.has(f.path))).toEqual(mb!.files.filter((f) => !RUN_RECORD.has(f.path)));
  }, 300_000);
});
