import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS } from '../../src/util/exit-codes.js';
import { assertBuilt, describeRun, runCli, splitStderr, startCli, type CliResult } from '../support/cli/cli.js';
import { expectNoSecrets } from '../support/cli/secrets.js';
import { PLANTED_SECRETS, startTestSim, type TestSim } from '../support/cli/sim.js';
import { workspace } from '../support/cli/workspace.js';
import { expectExit as expectExitContract } from '../support/cli/exit-contract.js';
import { closedPort } from '../support/cli/closed-port.js';
import { serveFakePriceSources } from '../support/prices/fake-price-sources.js';
import { utcDaysAgo, writePricesConfig } from '../support/prices/cli-config.js';

/**
 * Every exit code of the table (docs/contracts.md#exit-codes), provoked through the real command line against
 * the simulator: the exact code, ONE plain stderr line (`payexport: …`) for a failure and none for
 * a completed run, JSON log lines that each carry the run id, and the planted credentials in 0
 * bytes of stdout, stderr and every file written. 1 is for bugs only and is never provoked.
 */

const OCTOBER = ['--from', '2026-10-01', '--to', '2026-10-31'];
const NO_WALLET = '11111111-1111-4111-8111-111111111111';
const DB_PASSWORD = 'PLANTEDdbPassw0rd-4c1e9a';
const SECRETS = [...PLANTED_SECRETS, DB_PASSWORD];

const ws = workspace('exit-codes');
let sim: TestSim;
let anomalous: TestSim;
const provoked = new Set<number>();

beforeAll(async () => {
  assertBuilt();
  sim = await startTestSim();
  anomalous = await startTestSim({ anomalies: 'all' });
});

afterAll(async () => {
  await sim?.close();
  await anomalous?.close();
  ws.remove();
});

/** Asserts the contract of one finished run and records the code as provoked. */
function expectExit(args: readonly string[], result: CliResult, code: number, cwd: string, message?: RegExp): void {
  expectExitContract(args, result, code, { ...(message ? { message } : {}), secrets: SECRETS, dirs: [cwd] });
  // no stack trace without --verbose
  if (code !== 0 && code !== 65) expect(splitStderr(result.stderr).plain[0], describeRun(args, result)).not.toMatch(/\n|^\s+at /);
  provoked.add(code);
}

describe('exit codes of payexport, as a subprocess', () => {
  it('0: a complete run whose checks found no error', async () => {
    const cwd = ws.fresh('ok');
    const args = ['export', ...OCTOBER, '--no-db'];
    // One environment's key: the single-environment case (the other environment holds the asset wallet).
    const result = await runCli(args, { cwd, env: sim.env({ keyOf: 1 }) });
    expectExit(args, result, 0, cwd);
    expect(result.stdout).toMatch(/result\s+complete; (every reconciliation check passed|no reconciliation errors)/);
    expect(existsSync(join(cwd, 'reports/export/2026-10-01_2026-10-31/report.xlsx'))).toBe(true);
  });

  describe('64: bad command-line usage', () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['an unknown flag', ['export', ...OCTOBER, '--no-db', '--bogus'], /Unknown argument: bogus \(see `payexport export --help`\)/],
      ['an impossible date', ['export', '--from', '2026-02-30', '--to', '2026-03-01', '--no-db'], /invalid --from '2026-02-30'/],
      ['a reversed range', ['export', '--from', '2026-10-31', '--to', '2026-10-01', '--no-db'], /--from '2026-10-31' is after --to '2026-10-01'/],
      ['a bad month', ['month-end', '--month', '2026-13', '--no-db'], /invalid --month '2026-13'/],
      ['a missing option', ['export', '--from', '2026-10-01'], /Missing required argument: to/],
      ['an unknown option where required ones are missing too: the unknown one is named', ['export', '--bogus-flag'], /^payexport: Unknown argument: bogus-flag \(see `payexport export --help`\)$/],
      ['a group without its command: `prices` names fetch', ['prices'], /^payexport: name what to do: payexport prices fetch/],
      ['an unknown option of a group\'s command', ['prices', 'fetch', '--from', '2026-10-01', '--to', '2026-10-02', '--bogus'], /^payexport: Unknown argument: bogus \(see `payexport prices fetch --help`\)$/],
      ['a bad flag value', ['export', ...OCTOBER, '--no-db', '--concurrency', '0'], /invalid --concurrency '0'/],
      ['a wallet id that is no UUID', ['export', ...OCTOBER, '--no-db', '--wallet', 'main'], /invalid --wallet 'main': expected a UUID/],
      ['no command', [], /Name a command/],
    ];
    for (const [label, args, message] of cases) {
      it(label, async () => {
        const cwd = ws.fresh('usage');
        expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 64, cwd, message);
        expect(existsSync(join(cwd, 'reports')), 'nothing is written on a usage error').toBe(false);
      });
    }

    it('--verbose adds the stack after the one line, naming the source files (through the source maps)', async () => {
      const cwd = ws.fresh('verbose');
      const args = ['export', '--from', '2026-10-05', '--to', '2026-10-01', '--no-db', '--verbose'];
      const result = await runCli(args, { cwd, env: sim.env('token') });
      expect(result.code, describeRun(args, result)).toBe(64);
      const [first, ...stack] = splitStderr(result.stderr).plain;
      expect(first).toMatch(/^payexport: --from '2026-10-05' is after --to '2026-10-01'/);
      expect(stack.some((line) => /^\s+at .*src\/model\/period\.ts:\d+/.test(line)), result.stderr).toBe(true);
    });

    it('a wallet the organization does not have', async () => {
      const cwd = ws.fresh('unknown-wallet');
      const args = ['export', ...OCTOBER, '--no-db', '--wallet', NO_WALLET];
      expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 64, cwd, new RegExp(`wallet ${NO_WALLET} was not found`));
    });
  });

  it('65: completed, but reconciliation found errors (planted anomalies); the files are written', async () => {
    const cwd = ws.fresh('anomalies');
    const args = ['export', ...OCTOBER, '--no-db'];
    const result = await runCli(args, { cwd, env: anomalous.env('token') });
    expectExit(args, result, 65, cwd);
    expect(result.stdout).toMatch(/^ {2}error {5}\S/m);
    // the terminal, the exit code and the Overview agree: it does not tie, and says why
    expect(result.stdout).toMatch(/^tie-out {3}Does not tie — [\d,]+ errors?, /m);
    expect(result.stdout).toMatch(/^result {4}does not tie: [\d,]+ error finding\(s\) in exceptions\.csv .*\(exit 65\)$/m);
    expect(existsSync(join(cwd, 'reports/export/2026-10-01_2026-10-31/exceptions.csv'))).toBe(true);
  });

  it('69: the service answers 503 beyond the retry budget', async () => {
    const cwd = ws.fresh('unavailable');
    writeFileSync(join(cwd, 'tiny-retries.json'), JSON.stringify({ retry: { maxAttempts: 2, maxDelayMs: 5 } }));
    const args = ['export', ...OCTOBER, '--no-db', '--config', 'tiny-retries.json'];
    sim.sim.setFaults('503=1:retry-after=0');
    try {
      const result = await runCli(args, { cwd, env: sim.env('token') });
      expectExit(args, result, 69, cwd, /503 read_temporarily_unavailable/);
      const retries = splitStderr(result.stderr).logs.filter((r) => r.msg === 'api retry');
      expect(retries.length).toBeGreaterThan(0);
    } finally {
      sim.sim.setFaults(null);
    }
  });

  it("73: the period's folder is there but has no manifest: left as it is, refused before any request", async () => {
    const cwd = ws.fresh('unreadable-folder');
    const folder = join(cwd, 'reports/export/2026-10-01_2026-10-31');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'payments.csv'), 'the books someone put here\n');
    const args = ['export', ...OCTOBER, '--no-db'];
    const requestsBefore = sim.sim.requestLog.entries().length;
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 73, cwd, /the report folder .*2026-10-01_2026-10-31 has no manifest\.json: it is left as it is and nothing was written/);
    expect(sim.sim.requestLog.entries().length, 'refused before any request').toBe(requestsBefore);
    expect(readFileSync(join(folder, 'payments.csv'), 'utf8')).toBe('the books someone put here\n');
  });

  it('74: the output folder cannot be created (--out below a regular file)', async () => {
    const cwd = ws.fresh('cant-create');
    writeFileSync(join(cwd, 'a-file'), 'not a folder\n');
    const args = ['export', ...OCTOBER, '--no-db', '--out', 'a-file/reports'];
    const requestsBefore = sim.sim.requestLog.entries().length;
    expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 74, cwd, /cannot write to the output folder '.*a-file\/reports' \(ENOTDIR\)/);
    expect(sim.sim.requestLog.entries().length, 'refused before any request').toBe(requestsBefore);
  });

  describe('75: temporary, safe to retry', () => {
    it('another run holds the lock; a SIGTERMed run stops cleanly and a rerun succeeds', async () => {
      const cwd = ws.fresh('lock');
      const args = ['export', ...OCTOBER, '--no-db'];
      // The first run takes the lock, then waits on its first request.
      sim.sim.setFaults('latency=60s');
      let holder;
      try {
        holder = startCli(args, { cwd, env: sim.env({ keyOf: 1 }) });
        await holder.waitForStderr(/"phase":"discovery"/);
        const second = await runCli(args, { cwd, env: sim.env({ keyOf: 1 }) });
        expectExit(args, second, 75, cwd, /another export run is in progress \(pid \d+ on .+ since .+\); try again later/);
      } finally {
        holder?.child.kill('SIGTERM');
        sim.sim.setFaults(null);
      }
      const stopped = await holder.result;
      expectExit(args, stopped, 75, cwd, /interrupted by SIGTERM; run again with the same arguments to resume/);
      const rerun = await runCli(args, { cwd, env: sim.env({ keyOf: 1 }) });
      expect(rerun.code, describeRun(args, rerun)).toBe(0);
    });

    it('the database is unreachable', async () => {
      const cwd = ws.fresh('db-down');
      const args = ['export', ...OCTOBER];
      const env = { ...sim.env('token'), DATABASE_URL: `postgres://payexport:${DB_PASSWORD}@127.0.0.1:${await closedPort()}/books` };
      expectExit(args, await runCli(args, { cwd, env }), 75, cwd, /database postgres:\/\/payexport:\S+@127\.0\.0\.1:\d+\/books is unavailable \(ECONNREFUSED\); try again later/);
    });
  });

  describe('77: credentials missing or rejected', () => {
    it('no key at all', async () => {
      const cwd = ws.fresh('no-key');
      const args = ['export', ...OCTOBER, '--no-db'];
      const { PAYEXPORT_BASE_URL, PAYEXPORT_ORGANIZATION_ID } = sim.env('token');
      expectExit(args, await runCli(args, { cwd, env: { PAYEXPORT_BASE_URL: PAYEXPORT_BASE_URL!, PAYEXPORT_ORGANIZATION_ID: PAYEXPORT_ORGANIZATION_ID! } }), 77, cwd, /no API credentials .*PAYEXPORT_API_KEY/);
    });

    it('a wrong key (401)', async () => {
      const cwd = ws.fresh('wrong-key');
      const args = ['export', ...OCTOBER, '--no-db'];
      const env = { ...sim.env('token'), PAYEXPORT_BEARER_TOKEN: '', PAYEXPORT_API_KEY: 'vltg_not-a-key-of-this-organization' };
      expectExit(args, await runCli(args, { cwd, env }), 77, cwd, /401 wrong_credentials: .* — check PAYEXPORT_API_KEY or PAYEXPORT_BEARER_TOKEN/);
    });

    it("one environment's key used for another environment (403)", async () => {
      const cwd = ws.fresh('other-env');
      const args = ['export', ...OCTOBER, '--no-db', '--environment', sim.sim.environments[0]!.id];
      expectExit(args, await runCli(args, { cwd, env: sim.env({ keyOf: 1 }) }), 77, cwd, /403 access_rights: .* — the key cannot reach this: check the organization id, and that the key is this environment's/);
    });
  });

  describe('78: bad configuration', () => {
    it('an unknown key in the config file, with a suggestion', async () => {
      const cwd = ws.fresh('unknown-key');
      writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ concurency: 4 }));
      const args = ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json'];
      expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 78, cwd, /unknown configuration key 'concurency' in config file 'payexport.json' \(did you mean 'concurrency'\?\)/);
    });

    it('a secret written into the config file is refused without being echoed', async () => {
      const cwd = ws.fresh('secret-in-file');
      writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ environments: [{ id: sim.sim.environments[0]!.id, apiKey: PLANTED_SECRETS[0] }] }));
      const args = ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json'];
      const result = await runCli(args, { cwd, env: sim.env('token') });
      // the file itself holds the key: search only what the run printed and wrote
      expect(result.code, describeRun(args, result)).toBe(78);
      expect(splitStderr(result.stderr).plain).toEqual([expect.stringMatching(/holds a secret at 'environments\[0\]\.apiKey'/)]);
      expectNoSecrets(SECRETS, { texts: [result.stdout, result.stderr], dirs: [join(cwd, 'reports')] });
      provoked.add(78);
    });

    it('a staging environment against the production host: refused before any request', async () => {
      const cwd = ws.fresh('staging-prod');
      writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ environments: [{ id: sim.sim.environments[0]!.id, kind: 'staging' }] }));
      // The production host itself: the guard runs before any request, so no network is needed.
      const args = ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json', '--base-url', 'https://voltageapi.com/v1'];
      expectExit(args, await runCli(args, { cwd, env: { PAYEXPORT_ORGANIZATION_ID: sim.sim.organizationId, PAYEXPORT_API_KEY: PLANTED_SECRETS[0]! } }), 78, cwd, /configured as staging but the base URL is the production API — staging keys belong to https:\/\/staging\.voltageapi\.com\/v1/);
    });

    it('a wallet on average with the US tax files on: refused before any request, naming the wallet and the way out (docs/tax.md#methods)', async () => {
      const cwd = ws.fresh('average-for-tax');
      const demo = JSON.parse(readFileSync(join(import.meta.dirname, '../../config/demo.json'), 'utf8')) as Record<string, unknown> & { journal: { prices: Array<{ file: string }> }; lots: { openingLots: string; wallets: Record<string, unknown> } };
      const config = join(import.meta.dirname, '../../config');
      const wallet = Object.keys(demo.lots.wallets)[0]!;
      const average = {
        journal: { ...demo.journal, prices: demo.journal.prices.map((p) => ({ ...p, file: join(config, p.file) })) },
        lots: { ...demo.lots, openingLots: join(config, demo.lots.openingLots), wallets: { [wallet]: { methods: [{ method: 'fifo', from: '2025-01-01' }, { method: 'average', from: '2026-01-01' }] } } },
      };
      writeFileSync(join(cwd, 'payexport.json'), JSON.stringify(average));
      const args = ['export', ...OCTOBER, '--no-db', '--config', 'payexport.json'];
      expectExit(args, await runCli(args, { cwd, env: sim.env('token') }), 78, cwd, new RegExp(`^payexport: lots\\.wallets\\.${wallet}\\.methods: average is a book method, not one a US return may use for digital assets .*set lots\\.tax\\.form8949 to false to keep average for books outside the US$`));
      // nothing pulled, nothing written: the output root, if made, is empty
      expect(existsSync(join(cwd, 'reports')) ? readdirSync(join(cwd, 'reports'), { recursive: true }) : []).toEqual([]);
    });

    it('a malformed PAYEXPORT_NOW (the pinned clock of tests) is named in one line', async () => {
      const cwd = ws.fresh('bad-now');
      const args = ['export', ...OCTOBER, '--no-db'];
      expectExit(args, await runCli(args, { cwd, env: { ...sim.env('token'), PAYEXPORT_NOW: 'yesterday' } }), 78, cwd, /PAYEXPORT_NOW="yesterday" is not an RFC 3339 instant/);
    });
  });

  describe('78: another scope in the output root', () => {
    it("one wallet's export into the root of the organization's books, before any request", async () => {
      const cwd = ws.fresh('other-scope');
      const args = ['export', ...OCTOBER, '--no-db'];
      expect((await runCli(args, { cwd, env: sim.env('token') })).code).toBe(0);
      const narrower = [...args, '--wallet', sim.sim.wallets[0]!.id];
      const requestsBefore = sim.sim.requestLog.entries().length;
      expectExit(narrower, await runCli(narrower, { cwd, env: sim.env('token') }), 78, cwd, /holds the books of organization \S+ \(every environment, every wallet\); this run covers organization \S+ \(every environment, wallet \S+ only\): a different selection is a different set of books: give this run another --out, or rerun with --adopt-out/);
      expect(sim.sim.requestLog.entries().length, 'refused before any request').toBe(requestsBefore);
    });
  });

  describe('66, 68, 76: a price source with no data, gone, or answering for another currency (prices fetch)', () => {
    it.each([
      ['empty', 66, /gap\(s\)/],
      ['gone', 68, /source_gone/],
      ['wrong_currency', 76, /wrong_currency/],
    ] as const)('%s → %i', async (behaviour, code, message) => {
      const fake = await serveFakePriceSources({ nowSec: () => Math.floor(Date.now() / 1000) });
      fake.script('bitstamp', behaviour);
      const cwd = ws.fresh(`prices-${behaviour}`);
      writePricesConfig(cwd, fake);
      const args = ['prices', 'fetch', '--source', 'bitstamp', '--from', utcDaysAgo(3), '--to', utcDaysAgo(3), '--config', 'payexport.json'];
      expectExit(args, await runCli(args, { cwd, env: {} }), code, cwd, message);
    });
  });

  describe('130: cancelled at a question', () => {
    it('Ctrl-C (SIGINT) while init waits for an answer: one line, nothing written', async () => {
      const cwd = ws.fresh('cancelled');
      const args = ['init'];
      const running = startCli(args, { cwd, stdin: null });
      let shown = '';
      await new Promise<void>((resolve) => running.child.stdout!.on('data', (chunk: Buffer) => ((shown += chunk.toString('utf8')), /Service: .*: $/m.test(shown) && resolve())));
      running.child.kill('SIGINT');
      expectExit(args, await running.result, 130, cwd, /^payexport: cancelled: nothing was written$/);
    });
  });

  it('provoked every code of the table except 1 (bugs only)', () => {
    const table = Object.keys(EXIT_CODE_MEANINGS).map(Number).filter((code) => code !== 1);
    expect([...provoked].sort((a, b) => a - b)).toEqual(table.sort((a, b) => a - b));
  });
});
