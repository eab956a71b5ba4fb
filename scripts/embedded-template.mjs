// Builds dist/store/db/embedded-template-<PGlite version>.tar.gz: a freshly initialized PGlite data
// folder that src/store/pglite-db.ts unpacks instead of running initdb in the job's process (initdb
// in WebAssembly peaks at ~900 MB; unpacking at ~400 MB). Kept when it already exists for this
// version, so a rebuild costs nothing; it runs here, once, where the memory bound does not apply.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
const { version } = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'));
const target = `dist/store/db/embedded-template-${version}.tar.gz`;
if (!existsSync(target)) {
  const engine = await PGlite.create();
  const tarball = await engine.dumpDataDir('gzip');
  await engine.close();
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, Buffer.from(await tarball.arrayBuffer()));
  renameSync(`${target}.tmp`, target);
}
