import { chmodSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addWebhookSecret } from '../../../src/listen/secrets-file.js';
import { loadWebhookSecrets, parseSecretMap } from '../../../src/listen/webhook-secrets.js';
import { AppError } from '../../../src/util/errors.js';

const HOOK = '5B0F1C3E-2D4A-4C6B-9E8F-0A1B2C3D4E5F';
let dir: string | null = null;
const temp = (): string => (dir = mkdtempSync(join(tmpdir(), 'payexport-secrets-')));
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('webhook secrets', () => {
  it('parses {id: [secrets]} (a single string too), ids lower-cased; refuses anything else with exit 78', () => {
    expect([...parseSecretMap(`{"${HOOK}": ["a", "b"], "x": "c"}`, 'env')]).toEqual([
      [HOOK.toLowerCase(), ['a', 'b']],
      ['x', ['c']],
    ]);
    for (const bad of ['[]', '{"x": []}', '{"x": [1]}', 'nope']) {
      expect(() => parseSecretMap(bad, 'env')).toThrow(AppError);
    }
  });

  it('needs a source, registers every secret for scrubbing, and re-reads a changed file', async () => {
    expect(() => loadWebhookSecrets({ env: {}, onSecret: () => undefined })).toThrow(/no webhook secrets/);
    const file = join(temp(), 'secrets.json');
    await addWebhookSecret(file, HOOK, 'first-secret-value');
    const seen: string[] = [];
    let clock = 0;
    const source = loadWebhookSecrets({ env: {}, file, onSecret: (s) => seen.push(s), now: () => clock, recheckMs: 10 });
    expect(source.secretsFor(HOOK.toLowerCase())).toEqual(['first-secret-value']);
    await addWebhookSecret(file, HOOK, 'rotated-secret-value');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    clock = 100;
    expect(source.secretsFor(HOOK.toLowerCase())).toEqual(['first-secret-value', 'rotated-secret-value']);
    expect(seen).toContain('rotated-secret-value');
  });

  it('writes the file with mode 0600 and refuses one others can read', async () => {
    const file = join(temp(), 'secrets.json');
    await addWebhookSecret(file, HOOK, 's1');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    await expect(addWebhookSecret(file, HOOK, 's2')).rejects.toThrow(/readable by others/);
  });
});
