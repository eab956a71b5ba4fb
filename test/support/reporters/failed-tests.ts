/**
 * A vitest reporter that ends the run with what failed, after every other list: a CI log is often
 * read from its tail (the last screen of a 20-minute run), and vitest's own account of a failure
 * sits above the summary and the skipped tests' list, out of that screen. Each failed test, each
 * module that failed to load or in a hook, and each error outside any test is named with the first
 * lines of its message, enough to know where to look; the full account stays above.
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

const MESSAGE_LINES = 6;

/** The first lines of an error's message (and where it was thrown, when the stack says). */
export function errorGist(error: Pick<SerializedError, 'message' | 'name' | 'stack'>): string {
  const message = (error.message ?? '').split('\n').slice(0, MESSAGE_LINES).join('\n        ');
  const where = (error.stack ?? '').split('\n').find((line) => /\bat .*\/(src|test)\//.test(line))?.trim();
  return `${error.name ?? 'Error'}: ${message}${where !== undefined ? `\n        ${where}` : ''}`;
}

export default class FailedTestsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const lines: string[] = [];
    for (const module of testModules) {
      for (const error of module.errors()) lines.push(`  ${module.relativeModuleId} (the module itself)\n      ${errorGist(error)}`);
      for (const test of module.children.allTests('failed')) {
        const result = test.result();
        const first = result.state === 'failed' ? result.errors[0] : undefined;
        lines.push(`  ${module.relativeModuleId} › ${test.fullName}${first !== undefined ? `\n      ${errorGist(first)}` : ''}`);
      }
    }
    for (const error of unhandledErrors) lines.push(`  (outside any test)\n      ${errorGist(error)}`);
    if (lines.length === 0) return;
    process.stdout.write(`\nFailed (${lines.length}), in short (the full accounts are above):\n${lines.join('\n')}\n`);
  }
}
