/** The delivery section's table and its verdicts against issue 40's targets (bench/delivery/delivery-bench.ts). */
import type { Verdict } from '../types.js';
import { median, type DeliveryBenchResult } from './delivery-bench.js';

export const DELIVERY_TARGETS = {
  /** SFTP first delivery ≤ this × (OpenSSH put -r + get -r) */
  sftpFirstMax: 2.5,
  /** SFTP unchanged re-run ≤ this × get -r */
  sftpUnchangedMax: 3,
  /** S3 first delivery ≤ this × aws s3 cp --recursive (or boto3) */
  s3FirstMax: 2,
  /** peak RSS at the large folder ÷ at the small one */
  rssGrowthMax: 1.2,
} as const;

const s = (xs: readonly number[]): string => `${median(xs).toFixed(2)} s`;
const runs = (xs: ReadonlyArray<{ wallSeconds: number; deliverySeconds: number }>): string =>
  `${median(xs.map((r) => r.wallSeconds)).toFixed(2)} s [${xs.map((r) => r.wallSeconds.toFixed(2)).join(', ')}]; the delivery alone ${median(xs.map((r) => r.deliverySeconds)).toFixed(2)} s`;

export function deliveryTable(r: DeliveryBenchResult): string[] {
  const mb = (r.folder.bytes / 1e6).toFixed(1);
  const lines = [
    `Delivery (issue 40): a month-end folder of ${mb} MB in ${r.folder.files} files (${r.folder.payments.toLocaleString('en-US')} payments, stress profile), OpenSSH and moto on loopback; medians of ${r.sftp.first.length} back-to-back rounds; load average ${r.loadAverage.start} at start, ${r.loadAverage.end} at end`,
    '',
    '`payexport deliver` as a user runs it (node start and config load included); "the delivery alone" is its record\'s duration, what a job run spends delivering.',
    '',
    '| destination | reference client | ours: first delivery (upload + full read-back) | ours: unchanged re-run | ratio | peak RSS MB (first) |',
    '|---|---|---|---|---|---:|',
    `| SFTP (OpenSSH) | put -r ${s(r.sftp.put)} [${r.sftp.put.map((x) => x.toFixed(2)).join(', ')}] + get -r ${s(r.sftp.get)} [${r.sftp.get.map((x) => x.toFixed(2)).join(', ')}] | ${runs(r.sftp.first)} | ${runs(r.sftp.unchanged)} | first ÷ (put + get) ${r.sftp.firstRatio.toFixed(2)} (alone ${r.sftp.firstRatioAlone.toFixed(2)}); unchanged ÷ get ${r.sftp.unchangedRatio.toFixed(2)} (alone ${r.sftp.unchangedRatioAlone.toFixed(2)}) | ${median(r.sftp.first.map((x) => x.peakRssMb))} |`,
    `| S3 (moto) | ${r.s3.floorTool ?? 'none on this machine'} ${r.s3.floor.length > 0 ? `${s(r.s3.floor)} [${r.s3.floor.map((x) => x.toFixed(2)).join(', ')}]` : ''} | ${runs(r.s3.first)} | ${runs(r.s3.unchanged)} | first ÷ floor ${r.s3.firstRatio?.toFixed(2) ?? '—'} (alone ${r.s3.firstRatioAlone?.toFixed(2) ?? '—'}) | ${median(r.s3.first.map((x) => x.peakRssMb))} |`,
    '',
    '| destination | folder (month-end + synthetic padding) | first delivery wall s | peak RSS MB | RSS large ÷ small |',
    '|---|---|---:|---:|---:|',
  ];
  for (const x of r.rss) {
    lines.push(`| ${x.kind} | ${x.smallMb} MB | ${x.small.wallSeconds.toFixed(2)} | ${x.small.peakRssMb} | |`);
    lines.push(`| ${x.kind} | ${x.largeMb} MB | ${x.large.wallSeconds.toFixed(2)} | ${x.large.peakRssMb} | ${x.ratio.toFixed(2)} |`);
  }
  return lines;
}

export function deliveryVerdicts(r: DeliveryBenchResult): Verdict[] {
  const mb = `${(r.folder.bytes / 1e6).toFixed(0)} MB month-end folder`;
  const out: Verdict[] = [
    {
      target: `issue 40: SFTP first delivery ≤ ${DELIVERY_TARGETS.sftpFirstMax} × (OpenSSH sftp put -r + get -r), ${mb}`,
      measured: `${r.sftp.firstRatio.toFixed(2)} × (${median(r.sftp.first.map((x) => x.wallSeconds)).toFixed(2)} s against ${s(r.sftp.put)} + ${s(r.sftp.get)}); the delivery alone ${r.sftp.firstRatioAlone.toFixed(2)} ×`,
      met: r.sftp.firstRatio <= DELIVERY_TARGETS.sftpFirstMax,
    },
    {
      target: `issue 40: SFTP unchanged re-run ≤ ${DELIVERY_TARGETS.sftpUnchangedMax} × OpenSSH sftp get -r, ${mb}`,
      measured: `${r.sftp.unchangedRatio.toFixed(2)} × (${median(r.sftp.unchanged.map((x) => x.wallSeconds)).toFixed(2)} s against ${s(r.sftp.get)}); the delivery alone ${r.sftp.unchangedRatioAlone.toFixed(2)} ×`,
      met: r.sftp.unchangedRatio <= DELIVERY_TARGETS.sftpUnchangedMax,
    },
    {
      target: `issue 40: S3 (moto) first delivery ≤ ${DELIVERY_TARGETS.s3FirstMax} × ${r.s3.floorTool ?? 'a reference upload (none on this machine)'}, ${mb}`,
      measured: r.s3.firstRatio === null ? 'no reference client: aws CLI and boto3 both missing' : `${r.s3.firstRatio.toFixed(2)} × (${median(r.s3.first.map((x) => x.wallSeconds)).toFixed(2)} s against ${s(r.s3.floor)}); the delivery alone ${r.s3.firstRatioAlone?.toFixed(2)} ×`,
      met: r.s3.firstRatio === null ? null : r.s3.firstRatio <= DELIVERY_TARGETS.s3FirstMax,
    },
  ];
  for (const x of r.rss) {
    out.push({
      target: `issue 40: ${x.kind === 'sftp' ? 'SFTP' : 'S3'} delivery peak RSS flat in folder size: ${x.largeMb} MB ÷ ${x.smallMb} MB ≤ ${DELIVERY_TARGETS.rssGrowthMax}`,
      measured: `${x.ratio.toFixed(2)} × (${x.large.peakRssMb} MB / ${x.small.peakRssMb} MB)`,
      met: x.ratio <= DELIVERY_TARGETS.rssGrowthMax,
    });
  }
  return out;
}
