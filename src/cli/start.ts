/**
 * The bundled CLI's entry (scripts/bundle-cli.mjs builds dist/bundle/ from it). With `--verbose`
 * the stack printed after the one-line error names the sources (src/…/*.ts, through the bundle's
 * source maps): Node reads the maps only of modules loaded after they are turned on, so they are
 * turned on here, before the CLI is loaded, and only then — reading them costs every start time.
 */
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
await import('./main.js');
