/**
 * What each part of a payment row costs the server (the table behind docs/benchmarks.md,
 * "Snapshot cost per row"): `npx tsx bench/row-shapes.ts [rows]` (default 50000; DATABASE_URL).
 *
 * The same generated payments, encoded once, are COPied in one transaction into payments-shaped
 * tables that differ in one thing at a time (raw as jsonb or text or absent, amounts as numeric or
 * bigint, secondary indexes or not); the figure is the user + sys CPU of the connection's server
 * process per row (`pg_backend_pid()`, /proc/PID/stat; 10 ms ticks, so use ≥ 50k rows). Two rounds.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PAYMENT_COLUMNS } from '../src/model/rows.js';
import { columnKinds } from '../src/store/encoding/columns.js';
import { copyLine } from '../src/store/encoding/copy-text.js';
import { encodeStored } from '../src/store/sql/stage.js';
import { PAYMENTS } from '../src/store/sql/tables.js';
import { processCpuSeconds } from './e2e/proc-stat.js';
import { payment } from './payment-rows.js';

const ROWS = Number(process.argv[2] ?? 50_000);
const TYPES: Record<string, string> = { id: 'text COLLATE "C"', text: 'text', bigint: 'numeric(39,0)', instant: 'timestamptz', bool: 'boolean', json: 'jsonb', jsonText: 'text', 'text[]': 'text[]', int: 'integer', number: 'numeric' };

interface Shape {
  name: string;
  raw: 'jsonb' | 'text' | 'none';
  amounts: 'numeric(39,0)' | 'bigint';
  secondaryIndexes: boolean;
}

const SHAPES: Shape[] = [
  { name: 'raw jsonb, numeric, 3 indexes (main)', raw: 'jsonb', amounts: 'numeric(39,0)', secondaryIndexes: true },
  { name: 'raw jsonb, numeric, primary key only', raw: 'jsonb', amounts: 'numeric(39,0)', secondaryIndexes: false },
  { name: 'raw text, numeric, 3 indexes (this branch)', raw: 'text', amounts: 'numeric(39,0)', secondaryIndexes: true },
  { name: 'raw text, bigint, 3 indexes', raw: 'text', amounts: 'bigint', secondaryIndexes: true },
  { name: 'no raw, numeric, 3 indexes', raw: 'none', amounts: 'numeric(39,0)', secondaryIndexes: true },
];

const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
await client.connect();
const schema = `bench_shapes_${randomBytes(3).toString('hex')}`;
try {
  const { rows: [backend] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = backend?.pid ?? 0;
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.query(`SET search_path TO ${schema}`);
  const kinds = columnKinds(PAYMENT_COLUMNS);
  const rawIndex = kinds.findIndex(([name]) => name === 'raw');
  const encoded = Array.from({ length: ROWS }, (_, index) => encodeStored(PAYMENTS, payment(index)));
  const copy = (table: string, columns: string[], lines: string[]): Promise<void> =>
    new Promise((resolve, reject) => {
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      stream.on('finish', resolve);
      stream.on('error', reject);
      for (let start = 0; start < lines.length; start += 1000) stream.write(lines.slice(start, start + 1000).join(''));
      stream.end();
    });
  for (let round = 1; round <= 2; round++) {
    for (const shape of SHAPES) {
      const columns = kinds.filter(([name]) => !(shape.raw === 'none' && name === 'raw'));
      const type = (name: string, kind: string): string => (name === 'raw' ? shape.raw : kind === 'bigint' ? shape.amounts : (TYPES[kind] ?? 'text'));
      await client.query('DROP TABLE IF EXISTS t');
      await client.query(`CREATE TABLE t (${columns.map(([name, kind]) => `${name} ${type(name, kind)}`).join(', ')}, row_hash text NOT NULL, PRIMARY KEY (organization_id, payment_id))`);
      if (shape.secondaryIndexes) {
        await client.query('CREATE INDEX ON t (wallet_id, created_at, payment_id)');
        await client.query(`CREATE INDEX ON t (organization_id, wallet_id, created_at) WHERE status_class IN ('open', 'unknown')`);
      }
      const lines = encoded.map((fields) => copyLine(shape.raw === 'none' ? fields.filter((_, index) => index !== rawIndex) : fields));
      await client.query('CHECKPOINT').catch(() => undefined);
      const cpu = processCpuSeconds(pid);
      await client.query('BEGIN');
      await copy('t', [...columns.map(([name]) => name), 'row_hash'], lines);
      await client.query('COMMIT');
      const perRow = ((processCpuSeconds(pid) - cpu) / ROWS) * 1e6;
      console.log(`round ${round}  ${shape.name.padEnd(44)} ${perRow.toFixed(1).padStart(6)} µs/row`);
    }
  }
} finally {
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
