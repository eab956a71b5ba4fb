/**
 * The installation's signing key (docs/audit.md#the-signing-key): readable by its owner only (a
 * wider one stops every run that publishes, exit 78) and out of git, like the API key — and its
 * public half shown, the key id, the PEM and where the output root keeps it, because the
 * controller hands it to the auditor by another channel than the books. No key yet is no ✗: the
 * first run that publishes creates it (or `init`). Doctor only reads: it never creates the key nor
 * writes its public half.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { publicKeyFileName, KEYS_FOLDER } from '../../../audit/manifest-signature.js';
import { loadSigningKey, signingKeyPath, type SigningKey } from '../../../audit/signing-key.js';
import { AppError } from '../../../util/errors.js';
import { gitTracking } from '../../git-tracking.js';
import { fail, pass, type CheckLine, type DoctorCheck, type DoctorContext } from '../check.js';

const TITLE = 'signing key';
/** under the ✓ line, as the fix sits under a ✗ */
const INDENT = '      ';

export const signingKeyCheck: DoctorCheck = {
  id: 'signing-key',
  async run(ctx) {
    const path = signingKeyPath(ctx.env, ctx.cwd);
    let key: SigningKey | null;
    try {
      key = loadSigningKey(path);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return [fail(TITLE, error.message, keyFix(error.type, path))];
    }
    if (key === null) return [pass(TITLE, `none yet: the first run that publishes a folder creates ${path} (mode 600), or payexport init does`)];
    const git = gitTracking(path);
    if (git.kind === 'tracked') return [fail(`${TITLE} ${key.keyId}`, `${path} is committed to git in ${git.root}: the private key is in the history`, `retire it (docs/audit.md#the-signing-key: move it aside, the next run creates a new one), then git rm --cached '${path}'`)];
    if (git.kind === 'untracked' || git.kind === 'unknown') return [fail(`${TITLE} ${key.keyId}`, `${path} is inside the checkout ${git.root}, where git add . would commit it`, `keep it outside any checkout (unset PAYEXPORT_SIGNING_KEY_FILE: the default is ~/.config/payexport/signing-key.pem), or add it to .gitignore`)];
    return [publicHalfLine(key, ctx)];
  },
};

/** ✓ with the id, where the public half is (or will be) under the root, how to hand it over, then the PEM itself. */
function publicHalfLine(key: SigningKey, ctx: DoctorContext): CheckLine {
  const { out } = ctx.loaded.config;
  const kept = join(out, KEYS_FOLDER, publicKeyFileName(key.keyId));
  const where = existsSync(resolve(ctx.cwd, kept)) ? `its public half is ${kept}` : `its public half goes to ${kept} with the next run that publishes`;
  const pem = key.publicKeyPem.trimEnd().split('\n').map((l) => `${INDENT}${l}`);
  const detail = [
    `${key.path}, only its owner can read it; ${where}. Hand the auditor the id or this PEM by another channel than the books (docs/audit.md#the-signing-key):`,
    ...pem,
  ].join('\n');
  return pass(`${TITLE} ${key.keyId}`, detail);
}

function keyFix(type: string, path: string): string {
  switch (type) {
    case 'signing_key_permissions':
      return `chmod 600 '${path}' (only its owner may read the signing key)`;
    case 'signing_key_invalid':
      return `point PAYEXPORT_SIGNING_KEY_FILE at the installation's key, or move '${path}' aside so the next run creates a new one (a rotation: docs/audit.md#the-signing-key)`;
    default:
      return `make '${path}' readable by the user the scheduler runs payexport as`;
  }
}
