/**
 * A vitest reporter that ends the run with the list of skipped tests and why each skipped, so a
 * skip is read, never only counted (issue 42). The reason is the note given to `ctx.skip(note)`,
 * else what the title says after "skipped:" (the suites put their named condition there, e.g.
 * `describe.skipIf(why !== null)(`... (skipped: ${why})`)`); a skip that gives neither is listed
 * as such, for its suite to be fixed.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** The reason a skipped test's note or title gives (in its own name or a suite's), or null. */
export function skipReason(fullName: string, note: string | undefined): string | null {
  if (note !== undefined && note !== '') return note;
  for (const part of fullName.split(' > ')) {
    const m = /(\(?)skipped:\s*(.+)$/.exec(part);
    if (m) return (m[1] === '(' ? m[2]!.replace(/\)$/, '') : m[2]!).trim();
  }
  return null;
}

export default class SkippedTestsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        const note = result.state === 'skipped' ? result.note : undefined;
        const reason = skipReason(test.fullName, note) ?? 'NO REASON GIVEN (say why in the title or ctx.skip)';
        lines.push(`  ${module.relativeModuleId} › ${test.fullName.split(' > ').map((part) => part.replace(/\s*[—(]\s*skipped:.*$/, '')).join(' > ')}\n      why: ${reason}`);
      }
    }
    if (lines.length === 0) return;
    process.stdout.write(`\nSkipped tests (${lines.length}), and why:\n${lines.join('\n')}\n`);
  }
}
