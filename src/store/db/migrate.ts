import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../util/errors.js';
import type { Db } from './db.js';
import type { StoreSchema } from './schema.js';

/**
 * Versioned SQL migrations (model: graphile/worker src/migrations): `migrations/NNN_name.sql`,
 * applied in order, each recorded with a sha256 of its text in `schema_migrations`. The files use
 * unqualified names and run with `search_path` set to the target schema, so one set of files
 * serves any schema name. Everything happens in one transaction under an advisory lock, so two
 * processes migrating at once serialize and the second finds nothing to do.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** Found next to this module: `src/store/db/migrations` under tsx, `dist/store/db/migrations` once built (the build copies them). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = FILE_NAME.exec(file);
      if (!match) throw new AppError('internal', 'bad_migration_name', `migration file ${file} is not named NNN_name.sql`);
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return { version: Number(match[1]), name: match[2] ?? '', sql, checksum: createHash('sha256').update(sql).digest('hex') };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new AppError('internal', 'bad_migration_sequence', `migrations must be numbered 001, 002, … without gaps; found ${String(migration.version).padStart(3, '0')} at position ${index + 1}`);
    }
  });
  return migrations;
}

export interface MigrateResult {
  applied: number[];
  current: number;
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

export async function migrate(db: Db, schema: StoreSchema, migrations: readonly Migration[] = loadMigrations()): Promise<MigrateResult> {
  return db.transaction(async (tx) => {
    // Transaction-scoped: released at COMMIT/ROLLBACK, so a crash cannot leave it behind.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`payexport:migrate:${schema.name}`]);
    // DDL only when something is missing: an up-to-date schema needs no CREATE privilege, so jobs
    // can run as a role limited to reading and writing the tables.
    const { rows: [present] } = await tx.query<{ has_schema: boolean; has_table: boolean }>(
      `SELECT to_regnamespace($1) IS NOT NULL AS has_schema, to_regclass($2) IS NOT NULL AS has_table`,
      [schema.quoted, schema.table('schema_migrations')],
    );
    if (!present?.has_schema) await tx.query(`CREATE SCHEMA ${schema.quoted}`);
    await tx.query(`SET LOCAL search_path TO ${schema.quoted}`);
    if (!present?.has_table) {
      await tx.query(`CREATE TABLE ${schema.table('schema_migrations')} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    }
    const { rows } = await tx.query<AppliedRow>(`SELECT version, name, checksum FROM ${schema.table('schema_migrations')} ORDER BY version`);
    const known = new Map(migrations.map((migration) => [migration.version, migration]));
    for (const row of rows) {
      const migration = known.get(row.version);
      if (!migration) {
        throw new AppError('config', 'schema_too_new', `schema ${schema.name} has migration ${row.version} (${row.name}), which this payexport does not know: upgrade payexport`);
      }
      if (migration.checksum !== row.checksum) {
        throw new AppError('config', 'migration_checksum_mismatch', `migration ${row.version} (${row.name}) applied to schema ${schema.name} differs from this payexport's copy; refusing to continue`);
      }
    }
    const done = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.execScript(migration.sql);
      await tx.query(`INSERT INTO ${schema.table('schema_migrations')} (version, name, checksum) VALUES ($1, $2, $3)`, [migration.version, migration.name, migration.checksum]);
      applied.push(migration.version);
    }
    return { applied, current: migrations.at(-1)?.version ?? 0 };
  });
}
