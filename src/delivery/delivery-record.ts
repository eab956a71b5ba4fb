/** What became of one report folder at one destination: the row the snapshot's deliveries table keeps. */
export type DeliveryKind = 'folder' | 'sftp' | 's3';

export interface DeliveryRecord {
  destination: string;
  kind: DeliveryKind;
  /** `<job>/<folder>`, e.g. `month-end/2026-10.amended-1` */
  report: string;
  /** where it went, without any credential: `sftp://user@host:port/dir/…`, `s3://bucket/prefix/…`, a path */
  remote: string;
  /** `delivered`: every file is there and checked; `unchanged`: it was already, nothing sent; `failed` */
  outcome: 'delivered' | 'unchanged' | 'failed';
  files_sent: number;
  bytes_sent: number;
  attempts: number;
  /** `delivered`, or why not (scrubbed) */
  detail: string;
  duration_ms: number;
}
