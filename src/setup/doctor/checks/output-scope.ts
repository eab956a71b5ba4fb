/**
 * Whose books the output root holds (docs/reports.md#one-scope-per-output-root): tonight's run is
 * refused (exit 78) when the root holds another organization's books, another selection of this
 * one's, folders from before manifests named their scope, or the wrong layout for
 * output.perOrganization. Read only; a root that is not there yet is anyone's.
 */
import { stat } from 'node:fs/promises';
import { reportRoot } from '../../../config/output-root.js';
import { outputScope, scopeWords } from '../../../sinks/output-scope.js';
import { readRootRecord, rootScopeProblem } from '../../../sinks/root-scope.js';
import { fail, pass, skip, type DoctorCheck } from '../check.js';

export const outputScopeCheck: DoctorCheck = {
  id: 'output-scope',
  async run(ctx) {
    const { config } = ctx.loaded;
    const title = `output scope of ${config.out}`;
    if (config.organization === undefined) return [skip(title, 'no organization configured')];
    const where = reportRoot(config, ctx.cwd);
    const scope = outputScope(config.organization, config.environments.map((e) => e.id), config.wallets);
    const root = await stat(where.root).then(
      (s) => (s.isDirectory() ? 'folder' : 'other'),
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? 'absent' : 'other'),
    );
    if (root === 'other') return [skip(title, 'the output root is not a folder (see above)')];
    const { problem } = await rootScopeProblem({ root: where.root, scope, adopt: false, organizationsRoot: where.organizationsRoot });
    if (problem !== null) return [fail(title, problem.message, 'give the run an output root of its own ("out"), or set output.perOrganization; a root written before manifests named their scope: one run with --adopt-out (docs/reports.md#one-scope-per-output-root)')];
    const record = root === 'folder' ? await readRootRecord(where.root) : null;
    return [pass(title, record === null ? `no books yet: the first run records it as ${scopeWords(scope)}'s` : `${scopeWords(record.scope)}, the run's scope`)];
  },
};
