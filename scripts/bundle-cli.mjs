// Bundles the built CLI (dist/cli/start.js, dist/cli/main.js and what they import) into
// dist/bundle/: one file to start, plus one chunk per lazily imported part, instead of hundreds of
// modules resolved, read and compiled one by one at every start (Node 20 keeps no compile cache).
// What it saves is measured in docs/benchmarks.md ("The CLI's start: one bundled file").
// bin/payexport runs the bundle; dist/cli/main.js stays the same program unbundled (the embedded
// engine's worker thread and a baseline checkout's bench start from dist/).
//
// Two rules keep the bundle the same program:
// - Where a module finds a file beside itself (`new URL('./migrations/', import.meta.url)`, the
//   package.json, the demo's config), its `import.meta.url` is rewritten to the URL its own file in
//   dist/ has, relative to the bundle: every such path resolves where it did.
// - Only packages that read no file of their own at run time are bundled (INLINE); the others
//   (yargs's locales, pino's transport threads, PGlite's WebAssembly, exceljs, the AWS SDK, ssh2…)
//   stay imports, resolved from node_modules as before. A package bundled takes its own imports
//   with it, so a nested node_modules folder is never looked up from the wrong place.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** pure JavaScript, no file of their own read at run time, imported when the CLI starts or runs a job */
const INLINE = new Set(['zod', 'undici', 'cli-progress', '@date-fns/tz', 'date-fns', 'p-limit', 'decimal.js', 'csv-stringify']);

const root = process.cwd();
const outdir = join(root, 'dist', 'bundle');
const packageOf = (specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const inPackage = (file) => file.split(sep).includes('node_modules');

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, 'dist', 'cli', 'start.js') },
  // read only with --verbose (src/cli/start.ts), so a stack names src/ files; tsc's maps are chained
  sourcemap: 'linked',
  sourcesContent: false,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // a bundled CommonJS package calls require(): the one ES modules lack
  banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
  plugins: [
    {
      name: 'payexport-bundle',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('node:') || args.kind === 'entry-point') return undefined;
          if (inPackage(args.importer) || INLINE.has(packageOf(args.path))) return undefined;
          return { external: true };
        });
        b.onLoad({ filter: /\.js$/ }, async (args) => {
          if (inPackage(args.path)) return undefined;
          const text = await readFile(args.path, 'utf8');
          if (!text.includes('import.meta.url')) return undefined;
          const own = JSON.stringify(relative(outdir, args.path).split(sep).join('/'));
          return { contents: text.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`), loader: 'js', resolveDir: dirname(args.path) };
        });
      },
    },
  ],
});
