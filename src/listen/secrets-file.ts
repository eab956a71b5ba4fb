/**
 * Writes the webhook secrets file the listener reads (webhook-secrets.ts): created with mode 0600,
 * replaced atomically (a temporary file in the same folder, then rename), so a listener re-reading
 * it never sees half a file. An existing file that others can read is refused, like every secret
 * file here.
 */
import { existsSync } from 'node:fs';
import { chmod, open, rename, unlink } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { readSecretFile } from '../config/secrets.js';
import { parseSecretMap } from './webhook-secrets.js';

/** Adds `secret` as a candidate of `webhookId` (after the ones already there); returns the candidates now held. */
export async function addWebhookSecret(file: string, webhookId: string, secret: string): Promise<number> {
  const current = existsSync(file) ? parseSecretMap(readSecretFile(file, 'webhook secrets'), `webhook secrets file '${file}'`) : new Map<string, readonly string[]>();
  const out: Record<string, string[]> = {};
  for (const [id, list] of current) out[id] = [...list];
  const id = webhookId.toLowerCase();
  out[id] = [...(out[id] ?? []).filter((s) => s !== secret), secret];
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify(out, null, 2) + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return out[id].length;
}
