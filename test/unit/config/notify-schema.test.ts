import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { AppError } from '../../../src/util/errors.js';

/** The `notify` section: validated like every key (exit 78), secrets only by reference. */

function load(notify: unknown): ReturnType<typeof loadConfig> {
  const cwd = mkdtempSync(join(tmpdir(), 'payexport-notify-config-'));
  writeFileSync(join(cwd, 'payexport.json'), JSON.stringify({ notify }));
  return loadConfig({ flags: { config: 'payexport.json' }, env: {}, cwd });
}

function failure(notify: unknown): AppError {
  try {
    load(notify);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const ALL_FOUR = {
  destinations: [
    { kind: 'webhook', name: 'books', url: 'https://hooks.example.com/payexport', secretEnv: 'PAYEXPORT_WEBHOOK_SECRET' },
    { kind: 'slack', name: 'finance-slack', urlFile: 'secrets/slack-url', when: { nightly: 'on-exceptions', 'month-end': 'always' } },
    { kind: 'email', name: 'finance-mail', host: 'smtp.example.com', from: 'payexport@example.com', to: ['finance@example.com'], user: 'payexport', passwordEnv: 'PAYEXPORT_SMTP_PASSWORD', attachExceptions: true, when: 'on-failure' },
    { kind: 'ping', name: 'cron-monitor', urlEnv: 'PAYEXPORT_PING_URL' },
  ],
};

describe('notify config', () => {
  it('absent: no destinations, the 10 s budget and 3 attempts', () => {
    const { config } = loadConfig({ flags: {}, env: {}, cwd: tmpdir() });
    expect(config.notify).toEqual({ timeoutMs: 10_000, attempts: 3, maxExceptions: 5, destinations: [] });
  });

  it('all four kinds, with TLS by default for e-mail (port 587, STARTTLS required)', () => {
    const { config } = load(ALL_FOUR);
    expect(config.notify.destinations.map((d) => d.kind)).toEqual(['webhook', 'slack', 'email', 'ping']);
    expect(config.notify.destinations[2]).toMatchObject({ port: 587, secure: false, starttls: 'required', attachExceptions: true });
    expect(config.notify.destinations[3]).toMatchObject({ when: 'always' });
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['an unknown key in a destination', { destinations: [{ ...ALL_FOUR.destinations[0], colour: 'red' }] }, /unknown configuration key 'notify\.destinations\[0\]\.colour'/],
    ['an unknown key in the section', { destinations: [], retries: 2 }, /unknown configuration key 'notify\.retries'/],
    ['an unknown kind', { destinations: [{ kind: 'pager', name: 'x' }] }, /invalid configuration 'notify\.destinations\[0\]\.kind'/],
    ['a Slack URL written in the file', { destinations: [{ kind: 'slack', name: 's', url: 'https://hooks.slack.com/services/T/B/x' }] }, /unknown configuration key 'notify\.destinations\[0\]\.url'/],
    ['neither secretEnv nor secretFile', { destinations: [{ kind: 'webhook', name: 'w', url: 'https://x.example.com/' }] }, /expected exactly one of secretEnv or secretFile/],
    ['both urlEnv and urlFile', { destinations: [{ kind: 'ping', name: 'p', urlEnv: 'PING_URL', urlFile: 'ping-url' }] }, /expected exactly one of urlEnv or urlFile/],
    ['a condition on a dead man\'s switch', { destinations: [{ kind: 'ping', name: 'p', urlEnv: 'PING_URL', when: 'on-failure' }] }, /notify\.destinations\[0\]\.when/],
    ['an unknown job', { destinations: [{ ...ALL_FOUR.destinations[0], when: { weekly: 'always' } }] }, /notify\.destinations\[0\]\.when/],
    ['a webhook URL with a password in it', { destinations: [{ ...ALL_FOUR.destinations[0], url: 'https://ops:hunter2@hooks.example.com/x' }] }, /a URL with a password is a secret/],
    ['a name used twice', { destinations: [ALL_FOUR.destinations[0], ALL_FOUR.destinations[0]] }, /destination name 'books' is used twice/],
  ];
  for (const [label, notify, message] of refused) {
    it(`refuses ${label} (exit 78)`, () => {
      const error = failure(notify);
      expect(error.exitCode).toBe(78);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses a secret written in the file itself, naming where (exit 78)', () => {
    for (const [key, value] of [['secret', 'whsec_abc'], ['password', 'hunter22']] as const) {
      const error = failure({ destinations: [{ ...ALL_FOUR.destinations[0], [key]: value }] });
      expect(error).toMatchObject({ type: 'secret_in_config', exitCode: 78 });
      expect(error.message).toContain(`notify.destinations[0].${key}`);
      expect(error.message).not.toContain(value);
    }
  });
});

describe('the README\'s notifications example', () => {
  it('is a valid config with all four destinations', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Notifications'));
    const json = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(json).toBeDefined();
    const { notify } = JSON.parse(json!) as { notify: unknown };
    const { config } = load(notify);
    expect(config.notify.destinations.map((d) => d.kind).sort()).toEqual(['email', 'ping', 'slack', 'webhook']);
  });
});
