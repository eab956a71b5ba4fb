import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Subprocess, simulator and Postgres tests are real I/O; give them room, never rely on timing.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs file after file instead of one fresh process per file: the suites keep
    // no state in modules (docs/style.md: no singletons) and start their servers and simulators per
    // file, so isolation only cost a process start and a re-import of src/ per file (unit and
    // property suites: 66 s -> 32 s, docs/testing.md).
    isolate: false,
    // the default summary, then every skipped test with its reason (a skip is read, not counted),
    // then what failed, in short, so the last screen of a CI log names it
    reporters: ['default', './test/support/reporters/skipped-tests.ts', './test/support/reporters/failed-tests.ts'],
    // Two cores: more workers only thrash. Override with VITEST_MAX_WORKERS.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
  },
});
