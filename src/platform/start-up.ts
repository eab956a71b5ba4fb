/**
 * What the CLI changes in its own process, in one place, applied once by the entry point
 * (cli/main.ts) before any command runs — never by importing a module, so a test or an application
 * embedding payexport's modules runs on the runtime as it found it.
 *
 * Each setting is kept only while a measurement shows it is worth it (docs/benchmarks.md,
 * "Process-wide settings"); test/unit/platform/ fails when a Node or dependency upgrade breaks one.
 */
import { setFlagsFromString } from 'node:v8';
import { v8FlagsFor } from './v8-flags.js';
import { useNativeZipCrc } from './zip-crc.js';

export interface StartUpSettings {
  /** the V8 flags set */
  v8Flags: string[];
  /** whether workbook zips sum their CRC-32 in native code */
  nativeZipCrc: boolean;
}

let applied: StartUpSettings | null = null;

export function applyStartUpSettings(execArgv: readonly string[] = process.execArgv, setFlag: (flag: string) => void = setFlagsFromString): StartUpSettings {
  if (applied !== null) return applied;
  const v8Flags = v8FlagsFor(execArgv);
  for (const flag of v8Flags) setFlag(flag);
  applied = { v8Flags, nativeZipCrc: useNativeZipCrc() };
  return applied;
}
