// Copies non-TypeScript files the built code reads at runtime into dist/ (tsc only emits .js).
// Today: the SQL migrations, which src/store/db/migrate.ts finds next to itself.
import { cpSync, rmSync } from 'node:fs';

const assets = [['src/store/db/migrations', 'dist/store/db/migrations']];
for (const [from, to] of assets) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (source) => !source.endsWith('.ts') });
}
