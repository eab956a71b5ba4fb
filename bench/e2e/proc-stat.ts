/** CPU time from Linux's /proc, for the benchmarks (USER_HZ is 100 on Linux). */
import { readFileSync } from 'node:fs';

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
