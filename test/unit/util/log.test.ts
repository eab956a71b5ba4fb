import { describe, expect, it } from 'vitest';
import { createLogger, createMemoryLogger, defaultLogFormat, formatPretty, type LogLevel } from '../../../src/util/log.js';
import { REDACTED, SecretScrubber } from '../../../src/util/secret-scrubber.js';

const KEY = 'vltg_CANARY_log_7c1e2f3a4b5c6d7e8f90';
const forms = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')];

describe('logger', () => {
  it('writes JSON lines with run_id, level label and message', () => {
    const memory = createMemoryLogger({ runId: 'run-42' });
    memory.log.info({ method: 'GET', path: '/x' }, 'api response');
    expect(memory.records()[0]).toMatchObject({ level: 'info', run_id: 'run-42', method: 'GET', path: '/x', msg: 'api response' });
    expect(typeof memory.records()[0]?.time).toBe('string');
  });

  it('honours the level', () => {
    const memory = createMemoryLogger({ level: 'warn' });
    memory.log.info('hidden');
    memory.log.debug('hidden');
    memory.log.warn('shown');
    expect(memory.records().map((r) => r.msg)).toEqual(['shown']);
  });

  it.each<Exclude<LogLevel, 'fatal' | 'silent'>>(['trace', 'debug', 'info', 'warn', 'error'])('never writes a planted key at level %s (by key and by value, child loggers too)', (level) => {
    const memory = createMemoryLogger({ scrubber: new SecretScrubber([KEY]), level: 'trace' });
    const log = memory.log.child({ component: 'api', note: `child binding ${KEY}` });
    const fields = {
      headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY, cookie: 'c=1' },
      request: { headers: { 'x-api-key': KEY } },
      config: { apiKey: KEY, password: 'hunter2hunter2', databaseUrl: 'postgres://u:pw@db/x', webhookSecret: 'whsec_123456' },
      apiKey: KEY,
      message_with_key: `see ${KEY} and ${encodeURIComponent(KEY)} and ${Buffer.from(KEY).toString('base64')}`,
      err: new Error(`failed with ${KEY}`, { cause: new Error(`because ${KEY}`) }),
    };
    log[level](fields, `message ${KEY}`);
    const text = memory.lines.join('');
    for (const form of forms) expect(text).not.toContain(form);
    expect(text).not.toContain('hunter2hunter2');
    expect(text).not.toContain('whsec_123456');
    const record = memory.records()[0] as { headers: Record<string, string>; config: Record<string, string> };
    expect(record.headers.authorization).toBe(REDACTED);
    expect(record.headers['x-api-key']).toBe(REDACTED);
    expect(record.config.databaseUrl).toBe(REDACTED);
  });

  it('formats pretty lines for a TTY from the scrubbed JSON', () => {
    const line = JSON.stringify({ level: 'warn', time: '2026-11-22T10:00:01.234Z', run_id: 'r', msg: 'api retry', path: '/p', attempt: 2, err: { type: 'ApiError', message: 'boom' } });
    expect(formatPretty(line)).toBe('10:00:01.234 WARN  api retry path=/p attempt=2 err=ApiError: boom\n');
    expect(formatPretty('not json')).toBe('not json');
  });

  it('writes pretty lines through the same redaction', () => {
    const lines: string[] = [];
    const log = createLogger({ runId: 'r', scrubber: new SecretScrubber([KEY]), format: 'pretty', destination: { write: (l: string) => lines.push(l) } });
    log.info({ apiKey: KEY, note: KEY }, 'hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO {2}hello apiKey=\[REDACTED\] note=\[REDACTED\]\n$/);
  });

  it('picks pretty on a TTY and json otherwise', () => {
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
    expect(defaultLogFormat({ isTTY: false })).toBe('json');
    expect(defaultLogFormat({})).toBe('json');
  });
});
