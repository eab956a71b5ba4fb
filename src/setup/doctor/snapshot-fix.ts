/**
 * The fix for a Postgres snapshot doctor cannot open, by what the server said (store/db/db-errors.ts):
 * a database that does not exist is created, not "started" (issue 52) — with the exact command
 * and its SQL, for the server, role and name of DATABASE_URL (never its password).
 */
import { AppError } from '../../util/errors.js';

interface Target {
  host: string | undefined;
  port: string | undefined;
  role: string | undefined;
  database: string;
}

function targetOf(url: string): Target | null {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (database === '') return null;
    // a socket folder in ?host= is the host createdb takes too
    const host = parsed.hostname !== '' ? parsed.hostname : (parsed.searchParams.get('host') ?? undefined);
    return { host, port: parsed.port !== '' ? parsed.port : undefined, role: parsed.username !== '' ? decodeURIComponent(parsed.username) : undefined, database };
  } catch {
    return null;
  }
}

/** POSIX shell quoting, only where the word needs it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const sqlName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** `createdb -h 127.0.0.1 -p 5432 -U books finance` and `CREATE DATABASE "finance" OWNER "books";` */
export function createDatabaseFix(url: string): string {
  const target = targetOf(url);
  if (target === null) return 'create the database DATABASE_URL names (createdb NAME, or CREATE DATABASE in psql), or fix its name in DATABASE_URL';
  const flags = [target.host === undefined ? [] : ['-h', target.host], target.port === undefined ? [] : ['-p', target.port], target.role === undefined ? [] : ['-U', target.role]].flat();
  const command = ['createdb', ...flags, target.database].map(shellWord).join(' ');
  const sql = `CREATE DATABASE ${sqlName(target.database)}${target.role === undefined ? '' : ` OWNER ${sqlName(target.role)}`};`;
  return `create it: ${command} (as a role that may create databases; in psql: ${sql}), or fix the database name in DATABASE_URL`;
}

/** The fix for the error opening the Postgres snapshot at `url` gave. */
export function postgresFix(error: unknown, url: string): string {
  const type = error instanceof AppError ? error.type : undefined;
  switch (type) {
    case 'database_not_found':
      return createDatabaseFix(url);
    case 'database_auth_failed':
      return 'fix the role or its password in DATABASE_URL (the server refused them), or give the role a login on the server';
    case 'database_permission_denied':
      return 'grant the role of DATABASE_URL the rights it lacks (CONNECT on the database, CREATE on it or on the schema), or use a role that has them';
    case 'database_unavailable':
      return 'start the server, or fix the host and port in DATABASE_URL';
    default:
      return 'start the server, or fix DATABASE_URL (host, port, database, role, password)';
  }
}
