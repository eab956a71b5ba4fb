/**
 * The output folder's pre-flight probe: an unwritable folder fails the run before any request
 * (contracts.md, exit codes).
 */
import { access, rm, writeFile, constants } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureFolder } from '../util/ensure-folder.js';
import { AppError } from '../util/errors.js';

export /** Exit 74 before any request when the output folder cannot be written (PROC-09). */
async function assertWritable(outRoot: string): Promise<void> {
  const probe = join(outRoot, `.payexport-write-test-${process.pid}`);
  try {
    await ensureFolder(outRoot);
    await access(outRoot, constants.W_OK);
    // a new file only: a link planted at the probe's name is never written through (SEC-09)
    await writeFile(probe, '', { flag: 'wx' });
    await rm(probe, { force: true });
  } catch (error) {
    const { code = 'unknown', syscall, path } = error as NodeJS.ErrnoException;
    // which step failed, on which path: ENOENT from mkdir under /proc reads oddly without it
    const step = syscall !== undefined && path !== undefined ? `: ${syscall} '${path}' failed` : '';
    throw new AppError('cantCreate', 'output_not_writable', `cannot write to the output folder '${outRoot}' (${code})${step}`, { cause: error });
  }
}
