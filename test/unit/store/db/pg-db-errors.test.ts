import { describe, expect, it } from 'vitest';
import { classifyDbError } from '../../../../src/store/db/db-errors.js';
import { openPostgres } from '../../../../src/store/db/pg-db.js';
import { AppError } from '../../../../src/util/errors.js';

describe('openPostgres on an unreachable server', () => {
  it('fails with exit 75 and never shows the password', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const error = await openPostgres({ url: 'postgres://payexport:s3cret-pw@127.0.0.1:1/books' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ type: 'database_unavailable', exitCode: 75 });
    const text = `${(error as Error).message} ${JSON.stringify((error as AppError).details)}`;
    expect(text).toContain('postgres://payexport:***@127.0.0.1:1/books');
    expect(text).not.toContain('s3cret-pw');
  });
});

describe('classifyDbError', () => {
  const target = 'postgres://x:***@h/db';
  const withCode = (code: string): Error => Object.assign(new Error(`failure ${code}`), { code });

  it.each([
    ['57P03', 'tempFail'],
    ['08006', 'tempFail'],
    ['53300', 'tempFail'],
    ['ECONNRESET', 'tempFail'],
    ['28P01', 'noPerm'],
    ['42501', 'noPerm'],
    ['3D000', 'config'],
  ])('%s → %s', (code, exit) => {
    expect(classifyDbError(withCode(code), target)).toMatchObject({ exit });
  });

  it.each(['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable'])('a lost connection (%s) → tempFail', (message) => {
    expect(classifyDbError(new Error(message), target)).toMatchObject({ exit: 'tempFail', type: 'database_unavailable' });
  });

  it('leaves SQL errors alone: they are bugs or data, not the environment', () => {
    const error = withCode('23505');
    expect(classifyDbError(error, target)).toBe(error);
  });
});
