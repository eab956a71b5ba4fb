/**
 * Issue 41, target 4, seen from the floor: the garbage collector's share of the main thread while
 * the bare libraries write the job's rows (file-rows.ts), measured as the job's share is
 * (gc-share.ts, `--cpu-prof`), one process per pass (writer-pass.ts): the rows parsed only, then
 * parsed and written by csv-stringify, then by exceljs. A writer's share is that of what it adds to
 * the parse: its busy time and its GC, each less the parse pass's.
 *
 * Why: a target of 8 % for the whole job reads differently when the libraries it must use spend
 * more than that on their own rows (the first reading, on 50k payments: exceljs 12.8 %, csv-stringify
 * 9 %); the bench prints it beside the job's share.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gcShareOf, type GcShare } from './gc-share.js';

const PASS_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'writer-pass.ts');

export interface WritersGc {
  /** each pass's own profile */
  parse: GcShare;
  csv: GcShare;
  xlsx: GcShare;
  /** what csv-stringify and exceljs add to the parse, together */
  writers: GcShare;
}

function profiledPass(reportDir: string, mode: 'parse' | 'csv' | 'xlsx'): GcShare {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payexport-writers-gc-'));
  try {
    execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--import', 'tsx', PASS_SCRIPT, reportDir, mode], { stdio: ['ignore', 'ignore', 'inherit'] });
    return gcShareOf(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `pass` adds to `base`: busy time and GC each less the base's (never below zero). */
export function beyond(pass: GcShare, base: GcShare): GcShare {
  const busySeconds = Math.max(0, pass.busySeconds - base.busySeconds);
  const gcSeconds = Math.max(0, pass.gcSeconds - base.gcSeconds);
  return { busySeconds, gcSeconds, share: busySeconds === 0 ? 0 : gcSeconds / busySeconds };
}

export function measureWritersGc(reportDir: string): WritersGc {
  const parse = profiledPass(reportDir, 'parse');
  const csv = profiledPass(reportDir, 'csv');
  const xlsx = profiledPass(reportDir, 'xlsx');
  const c = beyond(csv, parse);
  const x = beyond(xlsx, parse);
  const busySeconds = c.busySeconds + x.busySeconds;
  const gcSeconds = c.gcSeconds + x.gcSeconds;
  return { parse, csv, xlsx, writers: { busySeconds, gcSeconds, share: busySeconds === 0 ? 0 : gcSeconds / busySeconds } };
}
