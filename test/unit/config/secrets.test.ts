import { describe, expect, it } from 'vitest';
import { redactDatabaseUrl } from '../../../src/config/secrets.js';

describe('redactDatabaseUrl', () => {
  it.each([
    ['postgres://app:s3cret@db.example:5432/books', 'postgres://app:***@db.example:5432/books'],
    ['postgres://app@db.example/books', 'postgres://app@db.example/books'],
    ['postgres://db.example/books?password=s3cret&sslmode=require', 'postgres://db.example/books?password=***&sslmode=require'],
    ['not a url s3cret', '<unparseable database URL>'],
  ])('%s', (url, expected) => {
    expect(redactDatabaseUrl(url)).toBe(expected);
  });
});
