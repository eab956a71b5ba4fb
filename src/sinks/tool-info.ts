/**
 * The tool's name and version for the manifest and the workbook's creator, read once from
 * package.json (two levels above both src/sinks/ and dist/sinks/).
 */
import { readFileSync } from 'node:fs';

let cached: { name: string; version: string } | undefined;

export function toolInfo(): { name: string; version: string } {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      cached = { name: typeof pkg.name === 'string' ? pkg.name : 'payexport', version: typeof pkg.version === 'string' ? pkg.version : '0.0.0' };
    } catch {
      cached = { name: 'payexport', version: '0.0.0' };
    }
  }
  return cached;
}
