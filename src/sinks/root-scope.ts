/**
 * One scope per output root (docs/reports.md#one-scope-per-output-root): an auditor opening the
 * root finds one organization's books, never two. The folders are the authority — every manifest
 * names its scope — and `<root>/.scope.json` records the root's scope from the first run that
 * reports there, so two first runs of different organizations started together cannot both take
 * an empty root (the file is created exclusively).
 *
 * `rootScopeProblem` is read only and runs before the pull (exit 78, one line naming both scopes
 * and the fix); `claimRoot` writes the record once the run knows its scope is real (discovery
 * answered). Folders written before manifests named their scope are never adopted silently:
 * `--adopt-out` records them as this scope's, if their parameters name this organization.
 */
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isOrganizationFolder } from '../config/output-root.js';
import { AppError, configError } from '../util/errors.js';
import { readFolderManifest, type FolderManifest } from './folder-manifest.js';
import { FILE_MODE } from './output-file.js';
import { sameScope, scopeOfManifest, scopeRefusal, scopeWords, type OutputScope } from './output-scope.js';

export const ROOT_SCOPE_FILE = '.scope.json';

export interface RootRecord {
  scope: OutputScope;
  /** the run that first reported here, and when */
  run_id: string;
  at: string;
  /** what `--adopt-out` made this root's: scopes it held before, and folders that named none */
  adopted?: Array<{ scope: OutputScope; run_id: string; at: string; folders: string[] }>;
}

export interface RootCheck {
  root: string;
  scope: OutputScope;
  /** `--adopt-out`: this run may take over folders without a recorded scope, and another selection of its organization */
  adopt: boolean;
  /** output.perOrganization: the folder above `root` that holds one folder per organization (null: `root` is the output root) */
  organizationsRoot: string | null;
}

/** What the root holds that this run would take over with `--adopt-out` (empty: nothing). */
export interface Adoption {
  /** folders (relative to the root) whose manifests name no scope, and another selection's */
  folders: string[];
  /** the scope the root's record named before */
  previous: OutputScope | null;
}

/** Why the run may not write under the root (exit 78), or what it adopts; read only. */
export async function rootScopeProblem(check: RootCheck): Promise<{ problem: AppError | null; adoption: Adoption }> {
  try {
    return await inspectRoot(check);
  } catch (error) {
    if (error instanceof AppError) return { problem: error, adoption: { folders: [], previous: null } };
    throw error;
  }
}

async function inspectRoot(check: RootCheck): Promise<{ problem: AppError | null; adoption: Adoption }> {
  const adoption: Adoption = { folders: [], previous: null };
  const layout = await layoutProblem(check);
  if (layout !== null) return { problem: layout, adoption };
  const where = `the output root ${check.root}`;
  const record = await readRootRecord(check.root);
  if (record !== null && !sameScope(record.scope, check.scope)) {
    if (!(check.adopt && record.scope.organization === check.scope.organization)) return { problem: scopeRefusal(`${where} (${ROOT_SCOPE_FILE})`, record.scope, check.scope, true), adoption };
    adoption.previous = record.scope;
  }
  const known = [check.scope, ...(record === null ? [] : [record.scope, ...(record.adopted ?? []).map((a) => a.scope)])];
  const adoptedFolders = new Set((record?.adopted ?? []).flatMap((a) => a.folders));
  for await (const [folder, read] of manifestsOf(check.root, await reportFolders(check.root))) {
    // a folder that cannot be read says no scope: it stops a run only when the run targets it (exit 73)
    const named = read.kind === 'manifest' ? scopeOfManifest(read.manifest) : null;
    if (named === null || adoptedFolders.has(folder)) continue;
    if (named.recorded && known.some((s) => sameScope(s, named.scope))) continue;
    const ours = named.scope.organization === check.scope.organization;
    if (check.adopt && ours) {
      adoption.folders.push(folder);
      continue;
    }
    if (named.recorded) return { problem: scopeRefusal(`${where} (e.g. ${folder})`, named.scope, check.scope, true), adoption };
    return { problem: legacyRefusal(where, folder, named.scope, check.scope), adoption };
  }
  return { problem: null, adoption };
}

/** A folder from before manifests named their scope: never taken over without being asked. */
function legacyRefusal(where: string, folder: string, theirs: OutputScope, ours: OutputScope): AppError {
  const fix =
    theirs.organization === ours.organization
      ? `rerun with --adopt-out to record the root as this scope's (its older folders kept as they are), or give this run another --out`
      : 'give this run another --out, or set output.perOrganization in the config for one folder per organization under the root';
  return configError('output_scope_unrecorded', `${where} holds folders written before manifests named their scope (e.g. ${folder}, of ${scopeWords(theirs)} by its parameters); this run covers ${scopeWords(ours)}: ${fix}`, { where, folder });
}

/**
 * Records the root's scope: created exclusively by the first run, compared by every later one
 * (exit 78 if it differs); with an adoption, rewritten whole with what was adopted.
 */
export async function claimRoot(check: RootCheck, runId: string, at: Date, adoption: Adoption): Promise<void> {
  const path = join(check.root, ROOT_SCOPE_FILE);
  const record = await readRootRecord(check.root);
  if (record !== null && sameScope(record.scope, check.scope) && adoption.folders.length === 0) return;
  if (record === null && adoption.folders.length === 0) {
    const fresh: RootRecord = { scope: check.scope, run_id: runId, at: at.toISOString() };
    try {
      await writeFile(path, `${JSON.stringify(fresh, null, 2)}\n`, { mode: FILE_MODE, flag: 'wx', flush: true });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // another run took the root between our check and now: its scope decides
      const theirs = await readRootRecord(check.root);
      if (theirs !== null && sameScope(theirs.scope, check.scope)) return;
      throw scopeRefusal(`the output root ${check.root} (${ROOT_SCOPE_FILE})`, theirs?.scope ?? null, check.scope, true);
    }
  }
  if (!check.adopt) throw scopeRefusal(`the output root ${check.root} (${ROOT_SCOPE_FILE})`, record?.scope ?? null, check.scope, true);
  const adopted = [...(record?.adopted ?? [])];
  adopted.push({ scope: adoption.previous ?? check.scope, run_id: runId, at: at.toISOString(), folders: adoption.folders });
  const next: RootRecord = { scope: check.scope, run_id: record?.run_id ?? runId, at: record?.at ?? at.toISOString(), adopted };
  const temporary = `${path}.${runId}.tmp`;
  await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: FILE_MODE, flag: 'wx', flush: true });
  await rename(temporary, path);
}

export async function readRootRecord(root: string): Promise<RootRecord | null> {
  let text: string;
  try {
    text = await readFile(join(root, ROOT_SCOPE_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  const parsed = ((): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  })();
  const scope = scopeOfManifest(parsed);
  if (scope === null || !scope.recorded) {
    throw configError('output_scope_unreadable', `${join(root, ROOT_SCOPE_FILE)} cannot be read as the output root's scope: restore it, or delete it if the root holds no report folder`, { root });
  }
  return { ...(parsed as RootRecord), scope: scope.scope };
}

/** Manifests read a few at a time (the disk, not the CPU, is what a root of years of nightlies waits on), in folder order. */
const READ_AHEAD = 16;

async function* manifestsOf(root: string, folders: readonly string[]): AsyncGenerator<[string, FolderManifest]> {
  for (let at = 0; at < folders.length; at += READ_AHEAD) {
    const slice = folders.slice(at, at + READ_AHEAD);
    const reads = await Promise.all(slice.map((folder) => readFolderManifest(join(root, folder))));
    for (const [i, folder] of slice.entries()) yield [folder, reads[i] as FolderManifest];
  }
}

/** `<job>/<folder>` of every folder two levels under the root (dot-names, files and links left out). */
async function reportFolders(root: string): Promise<string[]> {
  const folders: string[] = [];
  for (const job of await childFolders(root)) {
    for (const folder of await childFolders(join(root, job))) folders.push(`${job}/${folder}`);
  }
  return folders;
}

async function childFolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** A root is either one scope's (`<job>/<period>/` under it) or one folder per organization: never both. */
async function layoutProblem(check: RootCheck): Promise<AppError | null> {
  if (check.organizationsRoot === null) {
    const organizations = (await childFolders(check.root)).filter(isOrganizationFolder);
    if (organizations.length === 0) return null;
    return configError('output_layout_mismatch', `the output root ${check.root} holds one folder per organization (${organizations[0] ?? ''}/, output.perOrganization); this run covers ${scopeWords(check.scope)}: set output.perOrganization in the config, or give this run another --out`, { root: check.root });
  }
  const top = check.organizationsRoot;
  const record = await readRootRecord(top);
  let direct: string | null = record === null ? null : ROOT_SCOPE_FILE;
  for (const folder of direct === null ? await reportFolders(top) : []) {
    if ((await readFolderManifest(join(top, folder))).kind === 'manifest') {
      direct = folder;
      break;
    }
  }
  if (direct === null) return null;
  return configError('output_layout_mismatch', `output.perOrganization keeps each organization's books in ${top}/org-<organization id>/, but ${top} holds books of its own (${direct}): move them into the folder of their organization, or give this run another --out`, { root: top });
}
