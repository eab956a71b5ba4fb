/**
 * Where a run's report folders go (docs/reports.md#one-scope-per-output-root): the output root
 * (`out`), or with `output.perOrganization` the organization's own folder under it,
 * `<out>/org-<organization id>/`. The id, not a display name: it never changes when the
 * organization is renamed, and it is the id every manifest and the API name.
 */
import { join, resolve } from 'node:path';
import type { Config } from './schema.js';

const ORGANIZATION_FOLDER = /^org-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function organizationFolderName(organizationId: string): string {
  return `org-${organizationId.toLowerCase()}`;
}

/** Whether a folder name under an output root is an organization's folder (output.perOrganization). */
export function isOrganizationFolder(name: string): boolean {
  return ORGANIZATION_FOLDER.test(name);
}

export interface ReportRoot {
  /** the folder `<job>/<period>/` folders go under (and the `--no-db` spool's `.state/`) */
  root: string;
  /** with output.perOrganization: `out` itself, which holds one folder per organization; else null */
  organizationsRoot: string | null;
}

/** The report root of a run of `config` (an absolute path). Without an organization there is no organization folder to name: `out`. */
export function reportRoot(config: Pick<Config, 'out' | 'output' | 'organization'>, cwd: string): ReportRoot {
  const out = resolve(cwd, config.out);
  if (!config.output.perOrganization || config.organization === undefined) return { root: out, organizationsRoot: null };
  return { root: join(out, organizationFolderName(config.organization)), organizationsRoot: out };
}
