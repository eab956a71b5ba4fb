import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runCli, splitStderr } from '../support/cli/cli.js';
import { PLANTED_SECRETS, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit, expectNoPartialFolders, expectPaymentsComplete, expectSameReport } from './support/invariants.js';
import { LONG_TAIL, LONG_TAIL_SKIP, longTitle, OCTOBER, PERIOD } from './support/setting.js';
import { startReferenceRun } from './support/reference-run.js';

/**
 * PROC-04: the `--no-db` spool's state rewritten between a kill and the resume — garbage, cut
 * short, a line of the wrong shape, a stream file shorter than its checkpoint says, a journal or
 * a state file from another run key. Each one is either a clean restart of what it touched (the
 * rerun then pulls that part again) or the run refuses; never a report built on it. Whatever
 * happens, the published files equal a clean run's byte for byte and list every payment once.
 */

const ws = workspace('faults-state');
let sim: TestSim;
let truth: string[];
let reference: string;

beforeAll(async () => {
  ({ sim, truth, reference } = await startReferenceRun(ws));
});

afterAll(async () => {
  await sim?.close();
  ws.remove();
});

const ARGS = ['export', ...OCTOBER, '--no-db', '--page-size', '10'];

type Corrupt = (state: string) => void;

/** The largest stream file: the one a lost or invented row would show in. */
function biggestStream(state: string): string {
  const files = readdirSync(join(state, 'streams')).map((f) => join(state, 'streams', f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

/** `long`: in `npm run test:faults` only (each case is a kill and a full rerun, ~10 s on the shared machine). */
const CASES: Array<{ label: string; long?: true; corrupt: Corrupt }> = [
  { label: 'state.json rewritten with garbage', corrupt: (s) => writeFileSync(join(s, 'state.json'), '\u0000\u00ffgarbage{{{') },
  {
    label: 'state.json cut in half', long: true,
    corrupt: (s) => {
      const path = join(s, 'state.json');
      truncateSync(path, Math.floor(statSync(path).size / 2));
    },
  },
  { label: 'state.json valid JSON of the wrong shape', long: true, corrupt: (s) => writeFileSync(join(s, 'state.json'), '{"run_key": 42, "streams": null}') },
  {
    label: 'state.json from another run key', long: true,
    corrupt: (s) => {
      const path = join(s, 'state.json');
      const state = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(path, JSON.stringify({ ...state, run_key: 'export:another-organization:2026-09-01_2026-09-30' }));
    },
  },
  {
    label: 'the checkpoint journal with garbage and wrong-shape lines among its own',
    corrupt: (s) => {
      const path = join(s, 'checkpoints.jsonl');
      const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
      lines.splice(Math.floor(lines.length / 2), 0, 'garbage', '{}', '{"checkpoint":{"stream":7},"length":"x"}', '[1,2]');
      writeFileSync(path, `${lines.join('\n')}\n`);
    },
  },
  {
    label: 'the checkpoint journal from another run key (its lines point past the stream files)', long: true,
    corrupt: (s) => {
      const path = join(s, 'checkpoints.jsonl');
      const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
      const foreign = lines.map((line) => {
        const entry = JSON.parse(line) as { run_key?: string; length: number };
        return JSON.stringify({ ...entry, run_key: 'export:another-organization:2026-09-01_2026-09-30', length: entry.length * 3 });
      });
      writeFileSync(path, `${[...lines, ...foreign].join('\n')}\n`);
    },
  },
  {
    label: 'a stream file truncated below its checkpoint (rows the checkpoint counts are gone)',
    corrupt: (s) => {
      const file = biggestStream(s);
      truncateSync(file, Math.floor(statSync(file).size / 3));
    },
  },
  {
    label: 'a stream file with garbage where its rows were', long: true,
    corrupt: (s) => {
      const file = biggestStream(s);
      writeFileSync(file, Buffer.alloc(statSync(file).size, 0x7b));
    },
  },
];

describe('PROC-04: a corrupted spool state between a kill and the resume', () => {
  const cases = CASES.map((c) => ({ ...c, title: c.long ? longTitle(c.label) : c.label, skip: c.long === true && !LONG_TAIL }));
  it.for(cases)('$title: a clean restart or a clear refusal, never a wrong report', async ({ corrupt, skip }, context) => {
    context.skip(skip, LONG_TAIL_SKIP);
    const cwd = ws.fresh('state');
    const state = join(cwd, 'reports/.state/export', PERIOD);
    const killed = await runCli(ARGS, { cwd, env: { ...sim.env('token'), PAYEXPORT_FAULT_AT: 'pull:page:pages=40' } });
    expect(killed.signal, describeRun(ARGS, killed)).toBe('SIGKILL');
    expect(existsSync(join(state, 'checkpoints.jsonl')), 'the kill left checkpoints to corrupt').toBe(true);
    corrupt(state);

    const rerun = await runCli(ARGS, { cwd, env: sim.env('token') });
    expectExit(ARGS, rerun, 0, { secrets: PLANTED_SECRETS, dirs: [cwd] });
    // what was set aside is said, once, as a warning
    const warned = splitStderr(rerun.stderr).logs.filter((r) => typeof r.msg === 'string' && /^spool state not trusted, set aside: /.test(r.msg));
    expect(warned.length, describeRun(ARGS, rerun)).toBeGreaterThan(0);
    expect(expectNoPartialFolders(join(cwd, 'reports'), 'export')).toEqual([PERIOD]);
    const final = join(cwd, 'reports/export', PERIOD);
    expectSameReport(final, reference, 'after the corrupted state');
    expectPaymentsComplete(final, truth, 'after the corrupted state');
  });
});
