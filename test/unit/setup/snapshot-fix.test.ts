import { describe, expect, it } from 'vitest';
import { createDatabaseFix, postgresFix } from '../../../src/setup/doctor/snapshot-fix.js';
import { AppError } from '../../../src/util/errors.js';

/** Doctor's fix for a Postgres snapshot it cannot open follows what the server said (issue 52). */

describe('postgresFix', () => {
  it('a database that does not exist: createdb and the SQL, for the URL\'s server, role and name — never its password', () => {
    const error = new AppError('config', 'database_not_found', 'database x does not exist');
    const fix = postgresFix(error, 'postgres://books:s3cret-PLANTED@db.internal:6432/finance');
    expect(fix).toBe('create it: createdb -h db.internal -p 6432 -U books finance (as a role that may create databases; in psql: CREATE DATABASE "finance" OWNER "books";), or fix the database name in DATABASE_URL');
    expect(fix).not.toContain('s3cret');
  });

  it('names that need quoting are quoted for the shell and for SQL; a socket folder is the host', () => {
    expect(createDatabaseFix('postgres://o%27brien@localhost/my%20books')).toBe(`create it: createdb -h localhost -U 'o'\\''brien' 'my books' (as a role that may create databases; in psql: CREATE DATABASE "my books" OWNER "o'brien";), or fix the database name in DATABASE_URL`);
    expect(createDatabaseFix('postgres:///finance?host=/var/run/postgresql')).toMatch(/^create it: createdb -h \/var\/run\/postgresql finance \(/);
    expect(createDatabaseFix('postgres://127.0.0.1/we"ird')).toContain('CREATE DATABASE "we""ird";');
  });

  it('a server that does not answer is started; refused credentials are fixed, not the server', () => {
    expect(postgresFix(new AppError('tempFail', 'database_unavailable', 'x'), 'postgres://h/d')).toBe('start the server, or fix the host and port in DATABASE_URL');
    expect(postgresFix(new AppError('noPerm', 'database_auth_failed', 'x'), 'postgres://h/d')).toMatch(/^fix the role or its password in DATABASE_URL/);
  });
});
