/**
 * The files do not depend on the page size (docs/extraction.md#page-size): the same export at pages
 * of 7 and at the largest page the simulator grants (1000 asked, 500 granted and echoed) writes
 * every CSV and XLSX byte for byte the same, with far fewer requests at the large page.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, describeRun, runCli } from '../support/cli/cli.js';
import { startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { reportFiles } from '../support/sinks/report-files.js';

const ws = workspace('page-size-bytes');
let sim: TestSim;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  env = sim.env({ keyOf: 1 });
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

async function exportAt(pageSize: number): Promise<{ files: Map<string, Buffer>; limits: number[] }> {
  const cwd = ws.fresh(`pages-${pageSize}`);
  const before = sim.sim.requestLog.entries().length;
  const args = ['export', '--from', '2026-10-01', '--to', '2026-10-31', '--no-db', '--format', 'csv,xlsx', '--page-size', String(pageSize)];
  const result = await runCli(args, { cwd, env });
  expect([0, 65], describeRun(args, result)).toContain(result.code);
  const limits = sim.sim.requestLog
    .entries()
    .slice(before)
    .filter((e) => /\/payments$|\/ledger$/.test(e.path))
    .map((e) => Number(new URLSearchParams(e.query).get('limit')));
  return { files: reportFiles(join(cwd, 'reports')), limits };
}

describe('the page size changes the requests, not the files', () => {
  it('pages of 7 and the largest page granted write the same bytes', async () => {
    const small = await exportAt(7);
    const large = await exportAt(1000);
    expect(new Set(small.limits)).toEqual(new Set([7]));
    // the first requests ask 1000; once the simulator's echo (500) is back, every later one asks 500
    // (here every list fits one page, so the open chains may all have asked before the echo)
    expect(large.limits).toContain(1000);
    expect(large.limits.every((limit) => limit === 1000 || limit === 500)).toBe(true);
    expect(large.limits.length).toBeLessThan(small.limits.length / 4);

    expect([...small.files.keys()].sort()).toEqual([...large.files.keys()].sort());
    expect(small.files.size).toBeGreaterThanOrEqual(2);
    for (const [file, bytes] of small.files) expect(large.files.get(file)?.equals(bytes), file).toBe(true);
  });
});
