import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationFolderName } from '../../../src/config/output-root.js';
import { outputScope, type OutputScope } from '../../../src/sinks/output-scope.js';
import { claimRoot, readRootRecord, rootScopeProblem, ROOT_SCOPE_FILE, type RootCheck } from '../../../src/sinks/root-scope.js';
import type { AppError } from '../../../src/util/errors.js';
import { FIXTURE_SCOPE, writeSmallReport } from '../../support/sinks/write-report.js';

/**
 * One scope per output root (src/sinks/root-scope.ts): what a root holds decides who may write
 * there — its folders' manifests, and `.scope.json` once a run has reported there; folders
 * written before manifests named their scope are never taken over without `--adopt-out`, and
 * another organization's never.
 */

const A: OutputScope = outputScope(FIXTURE_SCOPE.organization, [], []);
const B: OutputScope = outputScope('0b6c0d5e-0000-4000-8000-0000000000b2', [], []);
const A_ONE_WALLET: OutputScope = outputScope(FIXTURE_SCOPE.organization, [], ['0b6c0d5e-0000-4000-8000-0000000000aa']);
const AT = new Date('2026-11-02T08:00:00Z');

let base: string;
let n = 0;
const fresh = async (): Promise<string> => {
  n += 1;
  const dir = join(base, `root-${n}`);
  await mkdir(dir, { recursive: true });
  return dir;
};
const check = (root: string, scope: OutputScope, more: Partial<RootCheck> = {}): RootCheck => ({ root, scope, adopt: false, organizationsRoot: null, ...more });
const problemOf = async (c: RootCheck): Promise<AppError | null> => (await rootScopeProblem(c)).problem;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'payexport-root-scope-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('an empty root', () => {
  it('is anyone’s until a run reports there; then it is that scope’s', async () => {
    const root = await fresh();
    expect(await problemOf(check(root, A))).toBeNull();
    expect(await problemOf(check(root, B))).toBeNull();
    await claimRoot(check(root, A), 'run-a', AT, { folders: [], previous: null });
    expect(await readRootRecord(root)).toMatchObject({ scope: A, run_id: 'run-a', at: AT.toISOString() });
    await claimRoot(check(root, A), 'run-a2', AT, { folders: [], previous: null });
    expect((await readRootRecord(root))?.run_id, 'a later run of the same scope changes nothing').toBe('run-a');
    const refused = await problemOf(check(root, B));
    expect(refused?.exitCode).toBe(78);
    expect(refused?.message).toContain(A.organization);
    expect(refused?.message).toContain(B.organization);
    expect(refused?.message).toMatch(/another --out, or set output\.perOrganization/);
    await expect(claimRoot(check(root, B), 'run-b', AT, { folders: [], previous: null })).rejects.toMatchObject({ exitCode: 78 });
  });

  it('is taken by exactly one of two first runs of different organizations started together', async () => {
    const root = await fresh();
    const outcomes = await Promise.allSettled([A, B, A, B].map((scope, i) => claimRoot(check(root, scope), `run-${i}`, AT, { folders: [], previous: null })));
    const owner = (await readRootRecord(root))?.scope;
    expect(owner).toBeDefined();
    for (const [i, outcome] of outcomes.entries()) {
      const scope = [A, B, A, B][i]!;
      expect(outcome.status, `run ${i}`).toBe(scope.organization === owner?.organization ? 'fulfilled' : 'rejected');
    }
  });
});

describe('a root with folders', () => {
  it("refuses another organization, names both, whether or not the root's record exists", async () => {
    const root = await fresh();
    await writeSmallReport(root);
    for (const recorded of [false, true]) {
      if (recorded) await claimRoot(check(root, A), 'run-a', AT, { folders: [], previous: null });
      const refused = await problemOf(check(root, B));
      expect(refused?.type).toBe('output_scope_mismatch');
      expect(refused?.message).toMatch(new RegExp(`^the output root ${root} \\((e\\.g\\. month-end/2026-10|\\.scope\\.json)\\) holds the books of organization ${A.organization} .*; this run covers organization ${B.organization} `));
      expect(await problemOf(check(root, B, { adopt: true })), 'never adopted across organizations').not.toBeNull();
      expect(await problemOf(check(root, A))).toBeNull();
    }
  });

  it('refuses a narrower selection of the same organization, unless asked to adopt', async () => {
    const root = await fresh();
    await writeSmallReport(root);
    const refused = await problemOf(check(root, A_ONE_WALLET));
    expect(refused?.message).toMatch(/a different selection is a different set of books: give this run another --out, or rerun with --adopt-out/);
    const { problem, adoption } = await rootScopeProblem(check(root, A_ONE_WALLET, { adopt: true }));
    expect(problem).toBeNull();
    expect(adoption.folders).toEqual(['month-end/2026-10']);
    await claimRoot(check(root, A_ONE_WALLET, { adopt: true }), 'run-adopt', AT, adoption);
    const record = await readRootRecord(root);
    expect(record).toMatchObject({ scope: A_ONE_WALLET, adopted: [{ run_id: 'run-adopt', folders: ['month-end/2026-10'] }] });
    // from now on the root is the narrower scope's, its older folders kept as they are
    expect(await problemOf(check(root, A_ONE_WALLET))).toBeNull();
    expect(await problemOf(check(root, A))).not.toBeNull();
  });

  it('ignores folders without a manifest (they stop a run only when it targets them: exit 73)', async () => {
    const root = await fresh();
    await mkdir(join(root, 'month-end', '2026-09'), { recursive: true });
    await mkdir(join(root, 'notes'), { recursive: true });
    await writeFile(join(root, 'notes', 'README.txt'), 'not a report');
    expect(await problemOf(check(root, B))).toBeNull();
  });

  it('refuses a record that cannot be read (78), naming the file', async () => {
    const root = await fresh();
    await writeFile(join(root, ROOT_SCOPE_FILE), '{"scope":');
    const refused = await problemOf(check(root, A));
    expect(refused?.exitCode).toBe(78);
    expect(refused?.message).toContain(join(root, ROOT_SCOPE_FILE));
  });
});

describe('folders written before manifests named their scope', () => {
  async function legacyRoot(organization: string): Promise<string> {
    const root = await fresh();
    const written = await writeSmallReport(root);
    const manifest = JSON.parse(await readFile(join(written.dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    delete manifest['scope'];
    manifest['parameters'] = { organization, environments: 'all', wallets: 'all' };
    await writeFile(join(written.dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    return root;
  }

  it('are never adopted silently, even by their own organization; --adopt-out records them, once', async () => {
    const root = await legacyRoot(A.organization);
    const refused = await problemOf(check(root, A));
    expect(refused).toMatchObject({ exitCode: 78, type: 'output_scope_unrecorded' });
    expect(refused?.message).toMatch(/written before manifests named their scope \(e\.g\. month-end\/2026-10, of organization \S+ \(every environment, every wallet\) by its parameters\).*rerun with --adopt-out/);
    const { problem, adoption } = await rootScopeProblem(check(root, A, { adopt: true }));
    expect(problem).toBeNull();
    await claimRoot(check(root, A, { adopt: true }), 'run-adopt', AT, adoption);
    expect((await readRootRecord(root))?.adopted?.[0]?.folders).toEqual(['month-end/2026-10']);
    expect(await problemOf(check(root, A)), 'the next run needs no flag').toBeNull();
    expect(await problemOf(check(root, B))).not.toBeNull();
  });

  it("of another organization: never adopted, the fix is another root", async () => {
    const root = await legacyRoot(B.organization);
    for (const adopt of [false, true]) {
      const refused = await problemOf(check(root, A, { adopt }));
      expect(refused?.message).toMatch(/give this run another --out, or set output\.perOrganization/);
    }
  });
});

describe('one folder per organization (output.perOrganization)', () => {
  it('is refused over a root that holds books of its own, and a flat run over a root of organization folders', async () => {
    const flat = await fresh();
    await writeSmallReport(flat);
    const inner = join(flat, organizationFolderName(B.organization));
    const refused = await problemOf(check(inner, B, { organizationsRoot: flat }));
    expect(refused?.type).toBe('output_layout_mismatch');
    expect(refused?.message).toContain('month-end/2026-10');

    const shared = await fresh();
    const a = join(shared, organizationFolderName(A.organization));
    expect(await problemOf(check(a, A, { organizationsRoot: shared }))).toBeNull();
    await writeSmallReport(a);
    await claimRoot(check(a, A, { organizationsRoot: shared }), 'run-a', AT, { folders: [], previous: null });
    const b = join(shared, organizationFolderName(B.organization));
    expect(await problemOf(check(b, B, { organizationsRoot: shared })), 'each organization in its own folder').toBeNull();
    const flatRun = await problemOf(check(shared, B));
    expect(flatRun?.message).toMatch(/holds one folder per organization .*set output\.perOrganization/);
  });
});
