/**
 * The `delivery` section of `npm run bench` (issue 40): our delivery against the reference clients
 * of each protocol, side by side in one run, on servers the bench starts on loopback — Debian's
 * OpenSSH (test/support/delivery/sftp-server.ts) and moto's S3 server — with a report folder made
 * by a real month-end (≥ 40 MB).
 *
 *   SFTP  first delivery (upload + full read-back)  ÷ (OpenSSH `sftp put -r` + `get -r`)   ≤ 2.5
 *         unchanged re-run (every file read back)   ÷ `get -r`                              ≤ 3
 *   S3    first delivery (upload + full read-back)  ÷ `aws s3 cp --recursive`              ≤ 2
 *   RSS   peak RSS of `payexport deliver`, the folder padded to 500 MB ÷ to 50 MB           ≤ 1.2
 *
 * Each pair runs back to back, `reps` times, and the medians are compared: the machine is shared
 * (2 cores), so a pair measured together sees the same load; the load average is kept with each run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server } from '../../test/support/delivery/s3-server.js';
import { startSftpServer } from '../../test/support/delivery/sftp-server.js';
import { opensshSftp, payexportDeliver, s3Floor, s3FloorTool, writeDeliveryConfig, type DeliverRun } from './clients.js';
import { MONTH, monthEndFolder, paddedFolder, type BenchFolder } from './folders.js';

export interface DeliveryBenchOptions {
  /** payments of the month-end's dataset (≈ 46 MB of folder at 72,000) */
  payments: number;
  seed: number;
  reps: number;
  /** the padded pair for the RSS target, in MB */
  rssSizesMb: [number, number];
  log: (line: string) => void;
}

export interface DeliveryBenchResult {
  folder: { bytes: number; files: number; payments: number };
  loadAverage: { start: string; end: string };
  /** ratios of the `payexport deliver` process's wall (what a user waits for); `…Alone`: of the delivery itself, as inside a job run (its record's duration: no node start, no config load) */
  sftp: { put: number[]; get: number[]; first: DeliverRun[]; unchanged: DeliverRun[]; firstRatio: number; unchangedRatio: number; firstRatioAlone: number; unchangedRatioAlone: number };
  s3: { floorTool: ReturnType<typeof s3FloorTool>; floor: number[]; first: DeliverRun[]; unchanged: DeliverRun[]; firstRatio: number | null; firstRatioAlone: number | null };
  rss: Array<{ kind: 'sftp' | 's3'; smallMb: number; largeMb: number; small: DeliverRun; large: DeliverRun; ratio: number }>;
}

const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r2 = (x: number): number => Math.round(x * 100) / 100;

export async function runDeliveryBench(options: DeliveryBenchOptions): Promise<DeliveryBenchResult> {
  const { log } = options;
  // the S3 server helper's own SDK client would warn on stderr about this Node version
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const work = mkdtempSync(path.join(os.tmpdir(), 'payexport-bench-delivery-'));
  const start = load();
  const sftp = await startSftpServer();
  const s3 = await startS3Server('moto');
  try {
    log(`  month-end over ${options.payments.toLocaleString('en-US')} payments`);
    const base = await monthEndFolder(work, options.payments, options.seed);
    if (base.bytes < 40e6) throw new Error(`the month-end folder is ${base.bytes} bytes, under the 40 MB the issue asks for: raise --delivery-payments`);
    log(`  folder ${(base.bytes / 1e6).toFixed(1)} MB in ${base.files} files; load ${load()}`);
    const config = path.join(work, 'payexport.json');
    const remote = path.join(sftp.root, 'month-end');
    const local = path.join(work, 'get');
    const result: DeliveryBenchResult = {
      folder: { bytes: base.bytes, files: base.files, payments: options.payments },
      loadAverage: { start, end: '' },
      sftp: { put: [], get: [], first: [], unchanged: [], firstRatio: Number.NaN, unchangedRatio: Number.NaN, firstRatioAlone: Number.NaN, unchangedRatioAlone: Number.NaN },
      s3: { floorTool: s3FloorTool(), floor: [], first: [], unchanged: [], firstRatio: null, firstRatioAlone: null },
      rss: [],
    };
    for (let rep = 1; rep <= options.reps; rep++) {
      rmSync(remote, { recursive: true, force: true });
      rmSync(local, { recursive: true, force: true });
      mkdirSync(remote, { recursive: true });
      const put = await opensshSftp(sftp, `put -r ${base.dir} ${path.join(remote, 'openssh')}`);
      const get = await opensshSftp(sftp, `get -r ${path.join(remote, 'openssh')} ${local}`);
      writeDeliveryConfig(config, sftp, s3, 'unused');
      const first = await payexportDeliver(work, config, base.dir, 'bench-sftp', s3);
      const unchanged = await payexportDeliver(work, config, base.dir, 'bench-sftp', s3);
      check(first, 'delivered', 'SFTP first');
      check(unchanged, 'unchanged', 'SFTP re-run');
      result.sftp.put.push(put);
      result.sftp.get.push(get);
      result.sftp.first.push(first);
      result.sftp.unchanged.push(unchanged);
      log(`  [${rep}] sftp: put -r ${put.toFixed(2)} s, get -r ${get.toFixed(2)} s; ours first ${first.wallSeconds} s (${first.peakRssMb} MB), unchanged ${unchanged.wallSeconds} s; load ${first.load}`);

      const tool = result.s3.floorTool;
      if (tool !== null) {
        await s3.createBucket(`floor-${rep}`);
        result.s3.floor.push(await s3Floor(tool, s3, base.dir, `floor-${rep}`));
      }
      await s3.createBucket(`ours-${rep}`);
      writeDeliveryConfig(config, sftp, s3, `ours-${rep}`);
      const s3First = await payexportDeliver(work, config, base.dir, 'bench-s3', s3);
      const s3Unchanged = await payexportDeliver(work, config, base.dir, 'bench-s3', s3);
      check(s3First, 'delivered', 'S3 first');
      check(s3Unchanged, 'unchanged', 'S3 re-run');
      result.s3.first.push(s3First);
      result.s3.unchanged.push(s3Unchanged);
      log(`  [${rep}] s3: ${tool ?? 'no floor tool'} ${result.s3.floor.at(-1)?.toFixed(2) ?? '—'} s; ours first ${s3First.wallSeconds} s (${s3First.peakRssMb} MB), unchanged ${s3Unchanged.wallSeconds} s; load ${s3First.load}`);
    }
    const s = result.sftp;
    s.firstRatio = r2(median(s.first.map((r) => r.wallSeconds)) / (median(s.put) + median(s.get)));
    s.unchangedRatio = r2(median(s.unchanged.map((r) => r.wallSeconds)) / median(s.get));
    s.firstRatioAlone = r2(median(s.first.map((r) => r.deliverySeconds)) / (median(s.put) + median(s.get)));
    s.unchangedRatioAlone = r2(median(s.unchanged.map((r) => r.deliverySeconds)) / median(s.get));
    if (result.s3.floor.length > 0) {
      result.s3.firstRatio = r2(median(result.s3.first.map((r) => r.wallSeconds)) / median(result.s3.floor));
      result.s3.firstRatioAlone = r2(median(result.s3.first.map((r) => r.deliverySeconds)) / median(result.s3.floor));
    }

    const [smallMb, largeMb] = options.rssSizesMb;
    const small = await paddedFolder(base, work, `padded-${smallMb}`, smallMb * 1e6);
    const large = await paddedFolder(base, work, `padded-${largeMb}`, largeMb * 1e6);
    for (const kind of ['sftp', 's3'] as const) {
      const runs: DeliverRun[] = [];
      for (const folder of [small, large]) {
        rmSync(remote, { recursive: true, force: true });
        const bucket = `rss-${kind}-${runs.length}`;
        await s3.createBucket(bucket);
        writeDeliveryConfig(config, sftp, s3, bucket);
        const run = await payexportDeliver(work, config, folder.dir, `bench-${kind}`, s3);
        check(run, 'delivered', `${kind} ${describe(folder)}`);
        runs.push(run);
        log(`  rss ${kind} ${describe(folder)}: ${run.wallSeconds} s, peak RSS ${run.peakRssMb} MB; load ${run.load}`);
      }
      result.rss.push({ kind, smallMb, largeMb, small: runs[0]!, large: runs[1]!, ratio: r2(runs[1]!.peakRssMb / runs[0]!.peakRssMb) });
    }
    result.loadAverage.end = load();
    return result;
  } finally {
    await sftp.stop();
    await s3.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function check(run: DeliverRun, outcome: string, what: string): void {
  if (run.outcome !== outcome) throw new Error(`${what}: expected ${outcome}, the record says ${run.outcome}`);
}

const describe = (f: BenchFolder): string => `${(f.bytes / 1e6).toFixed(0)} MB (month-end/${MONTH} + padding)`;
