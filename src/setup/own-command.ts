/**
 * This checkout's own `bin/payexport`, by its absolute path: what a crontab line runs. cron starts
 * with PATH=/usr/bin:/bin, which holds neither npm's global folder (where `npm link` puts
 * `payexport`) nor the checkout, and a bare name there would run whatever else answers to it.
 * Two levels above both src/setup/ and dist/setup/.
 */
import { fileURLToPath } from 'node:url';

export function ownCommandPath(): string {
  return fileURLToPath(new URL('../../bin/payexport', import.meta.url));
}
