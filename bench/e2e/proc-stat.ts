/** CPU time from Linux's /proc, for the benchmarks (USER_HZ is 100 on Linux). */
import { readdirSync, readFileSync } from 'node:fs';

/** user + sys of one live process, in seconds. */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** Busy time of all cores since boot (user, nice, system, irq, softirq; steal is the hypervisor's), in seconds. */
export function busyCoreSeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  return (user + nice + system + irq + softirq) / 100;
}

/**
 * CPU of every process named `postgres` on this machine, in seconds: live processes' own time plus
 * their reaped children's (cutime + cstime), so a backend that exited during a run is still counted
 * through the postmaster. The difference across a run is what the Postgres server spent on it
 * (and on any other client at the same time: the bench runs alone against it).
 */
export function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (!stat.includes('(postgres)')) continue;
    const fields = stat.split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0) + Number(fields[13] ?? 0) + Number(fields[14] ?? 0);
  }
  return ticks / 100;
}
