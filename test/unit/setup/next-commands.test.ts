import { describe, expect, it } from 'vitest';
import { nextCommands, SCHEDULERS } from '../../../src/setup/next-commands.js';

describe("init's next commands", () => {
  const base = { configPath: 'config/payexport.json', cwd: '/srv/books', command: '/opt/payexport/bin/payexport', tz: 'America/New_York', key: { kind: 'file', path: 'config/payexport.api-key' } as const, now: new Date('2026-11-27T03:00:00Z') };

  it('a dry run, the first month-end (the previous month in the books\' zone), then the scheduler line', () => {
    const lines = nextCommands({ ...base, scheduler: 'cron' });
    // config/payexport.json is where every command looks: no --config to type
    expect(lines[0]).toBe('  1. payexport month-end --dry-run');
    expect(lines[2]).toBe('  2. payexport month-end --month 2026-10');
    expect(lines[4]).toBe('  3. 30 6 2 * *  cd /srv/books && /opt/payexport/bin/payexport month-end >>month-end.log 2>&1');
  });

  it('another config file is named in every command', () => {
    const lines = nextCommands({ ...base, configPath: 'books/acme.json', scheduler: 'cron', books: { booksCurrency: 'USD', firstMovement: '2026-08-03' } });
    expect(lines[0]).toBe('  0. payexport prices fetch --currency BTC --books USD --from 2026-08-03 --to 2026-11-26 --config books/acme.json');
    expect(lines[2]).toBe('  1. payexport month-end --config books/acme.json --dry-run');
    expect(lines[6]).toBe('  3. 30 6 2 * *  cd /srv/books && /opt/payexport/bin/payexport month-end --config books/acme.json >>month-end.log 2>&1');
  });

  it('each scheduler names its file in deploy/, and a key from the environment is a note, never a value', () => {
    const third = (scheduler: (typeof SCHEDULERS)[number]): string => nextCommands({ ...base, scheduler, key: { kind: 'env', name: 'PAYEXPORT_API_KEY' } }).slice(4).join('\n');
    expect(third('systemd')).toContain('deploy/systemd/payexport-month-end.timer');
    expect(third('kubernetes')).toContain('kubectl apply -f deploy/kubernetes/cronjobs.yaml');
    for (const scheduler of SCHEDULERS) expect(third(scheduler)).toContain('with PAYEXPORT_API_KEY set in its environment');
  });

  it('quotes a working directory a shell would split', () => {
    expect(nextCommands({ ...base, cwd: "/srv/o'brien books", scheduler: 'cron' })[4]).toContain(`cd '/srv/o'\\''brien books' &&`);
    expect(nextCommands({ ...base, command: '/home/me/my books/bin/payexport', scheduler: 'cron' })[4]).toContain(`&& '/home/me/my books/bin/payexport' month-end`);
  });
});
