import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verify } from '../../../src/sinks/verify.js';
import { writeSmallReport } from '../../support/sinks/write-report.js';

const CHILD = join(import.meta.dirname, '../../support/sinks/slow-writer.ts');
let root: string | undefined;
afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe('a report run killed mid-write (PROC-01)', () => {
  it('publishes no folder, and the next run cleans the leftovers and publishes', async () => {
    root = await mkdtemp(join(tmpdir(), 'payexport-kill-'));
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    let out = '';
    for await (const chunk of child.stdout) {
      out += (chunk as Buffer).toString();
      if (out.includes('writing')) break;
    }
    expect(out, stderr).toContain('writing');
    child.kill('SIGKILL');
    const [code, signal] = (await exited) as [number | null, string | null];
    expect([code, signal]).toEqual([null, 'SIGKILL']);

    const jobDir = join(root, 'month-end');
    const left = await readdir(jobDir);
    expect(left).toEqual(['.2026-10.tmp-killed-run']);
    expect((await readFile(join(jobDir, left[0] as string, 'payments.csv'))).length).toBeGreaterThan(0);

    const { dir } = await writeSmallReport(root);
    expect(await readdir(jobDir)).toEqual(['2026-10']);
    expect((await verify(dir)).ok).toBe(true);
  });
});
