/**
 * The folders a real account gets by default, named for its organization (`org-<first 8 of its
 * id>`): reports under `reports/org-…`, the embedded database under `data/org-…`. The demo writes
 * under `reports/demo/` and `data/demo/`, so a real account's closed months never share a root
 * with the demo's (or with another organization's set up from the same checkout).
 */
export function accountFolderName(organizationId: string): string {
  return `org-${organizationId.slice(0, 8).toLowerCase()}`;
}

export function defaultOutRoot(organizationId: string): string {
  return `reports/${accountFolderName(organizationId)}`;
}

export function defaultDataDir(organizationId: string): string {
  return `data/${accountFolderName(organizationId)}`;
}
