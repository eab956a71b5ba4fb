import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseConfigFile, configFileLine, configFileToWrite } from '../../../src/config/config-file-choice.js';

/** `--config`, then PAYEXPORT_CONFIG, then config/payexport.json under the cwd; init writes where the jobs look. */
const withFile = mkdtempSync(join(tmpdir(), 'payexport-config-choice-'));
const without = mkdtempSync(join(tmpdir(), 'payexport-config-choice-none-'));
mkdirSync(join(withFile, 'config'));
writeFileSync(join(withFile, 'config', 'payexport.json'), '{}');
afterAll(() => {
  rmSync(withFile, { recursive: true, force: true });
  rmSync(without, { recursive: true, force: true });
});

describe('chooseConfigFile', () => {
  it('takes the flag over the variable over the file found, and nothing when none is there', () => {
    expect(chooseConfigFile('a.json', { PAYEXPORT_CONFIG: 'b.json' }, withFile)).toEqual({ path: 'a.json', origin: 'flag' });
    expect(chooseConfigFile(undefined, { PAYEXPORT_CONFIG: 'b.json' }, withFile)).toEqual({ path: 'b.json', origin: 'env' });
    expect(chooseConfigFile(undefined, {}, withFile)).toEqual({ path: 'config/payexport.json', origin: 'found' });
    expect(chooseConfigFile(undefined, { PAYEXPORT_CONFIG: '' }, withFile)).toEqual({ path: 'config/payexport.json', origin: 'found' });
    expect(chooseConfigFile(undefined, {}, without)).toBeNull();
    // a file named but absent is still the choice: loading it fails loudly instead of falling back
    expect(chooseConfigFile(undefined, { PAYEXPORT_CONFIG: 'missing.json' }, without)).toEqual({ path: 'missing.json', origin: 'env' });
  });

  it('says which file and why in one line', () => {
    expect(configFileLine({ path: 'config/payexport.json', origin: 'found' })).toBe('config: config/payexport.json (found in the current folder)');
    expect(configFileLine({ path: '/etc/payexport.json', origin: 'env' })).toBe('config: /etc/payexport.json (PAYEXPORT_CONFIG)');
    expect(configFileLine(null)).toMatch(/^config: no file \(.*\): defaults and environment$/);
  });

  it('init writes where the jobs will look', () => {
    expect(configFileToWrite(undefined, {})).toBe('config/payexport.json');
    expect(configFileToWrite(undefined, { PAYEXPORT_CONFIG: '/etc/p.json' })).toBe('/etc/p.json');
    expect(configFileToWrite('mine.json', { PAYEXPORT_CONFIG: '/etc/p.json' })).toBe('mine.json');
  });
});
