/**
 * What the job must do for the same data that the bare-library floor of issue 41 leaves out, each
 * measured with bare libraries at its cheapest (docs/benchmarks.md "Issue 41: what the floor leaves
 * out"). The same requests as the JSON floor (page-parse.ts), one at a time against a fresh simulator
 * child, the client's CPU only (the simulator is another process):
 *
 *   receive  undici `request()` over a keep-alive Agent, each body read as bytes (what the job's
 *            client does; the JSON floor times only the parse of bodies it was handed)
 *   keep     each body written as received to a file and fsync'd, one file per page: the least a
 *            resumable pull can do to keep what it received (the job's spool keeps the rows, smaller
 *            than the bodies, but it must encode them)
 *   reread   each kept body read back and parsed again: the least a report that reads what was kept
 *            can do (the job reads the rows back once per sheet that needs them)
 *
 * None of these is in the floor, and none can be skipped by a job that pulls over HTTP and survives
 * a kill (docs/reliability.md): their sum is a lower bound of what the job adds to the floor.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { startSimChild, stopChild } from '../e2e/sim-child.js';
import { walkExportPages, type Json } from './page-walk.js';

export interface RequiredWork {
  pages: number;
  bytes: number;
  /** CPU seconds of this process for each part */
  receiveSeconds: number;
  keepSeconds: number;
  rereadSeconds: number;
}

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export async function measureRequiredWork(options: { payments: number; wallets: number; seed: number }): Promise<RequiredWork> {
  const { child, info } = await startSimChild({ ...options, latencyMs: 0 });
  const dir = mkdtempSync(path.join(tmpdir(), 'payexport-required-'));
  const agent = new Agent({ connections: 1 });
  const work: RequiredWork = { pages: 0, bytes: 0, receiveSeconds: 0, keepSeconds: 0, rereadSeconds: 0 };
  const headers = { authorization: `Bearer ${info.bearerToken}`, accept: 'application/json' };
  const files: string[] = [];
  const get = async (pathAndQuery: string): Promise<Json> => {
    const start = cpu();
    const response = await request(`${info.baseUrl}${pathAndQuery}`, { method: 'GET', headers, dispatcher: agent });
    if (response.statusCode !== 200) throw new Error(`GET ${pathAndQuery.split('?')[0]} → ${response.statusCode}`);
    const body = Buffer.from(await response.body.arrayBuffer());
    work.receiveSeconds += cpu() - start;
    const kept = cpu();
    const file = path.join(dir, `${files.length}.json`);
    const fd = openSync(file, 'w');
    try {
      writeSync(fd, body);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    files.push(file);
    work.keepSeconds += cpu() - kept;
    work.pages++;
    work.bytes += body.length;
    // the walk needs the page (cursor, total): its parse is the JSON floor's, not counted here
    return JSON.parse(body.toString('utf8')) as Json;
  };
  try {
    await walkExportPages(info, get);
    const reread = cpu();
    let items = 0;
    for (const file of files) items += ((JSON.parse(readFileSync(file, 'utf8')) as Json).items as unknown[] | undefined)?.length ?? 0;
    work.rereadSeconds = cpu() - reread;
    if (items === 0) throw new Error('no items read back');
  } finally {
    await agent.close();
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
  return work;
}
