/**
 * Issue 41, target 4: the garbage collector's share of the main thread, read from a `--cpu-prof`
 * profile (V8 attributes its GC pauses on the main thread to the `(garbage collector)` node).
 * The share is of the thread's busy samples: `(idle)` is waiting, not work, so it is left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string };
}

export interface GcShare {
  busySeconds: number;
  gcSeconds: number;
  share: number;
}

export function gcShareOf(profileDir: string): GcShare {
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no .cpuprofile in ${profileDir}`);
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const name = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let busy = 0;
  let gc = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const fn = name.get(profile.samples[i] as number);
    const dt = profile.timeDeltas[i] ?? 0;
    if (fn === '(idle)') continue;
    busy += dt;
    if (fn === '(garbage collector)') gc += dt;
  }
  return { busySeconds: busy / 1e6, gcSeconds: gc / 1e6, share: busy === 0 ? 0 : gc / busy };
}
