/**
 * A preload for the job's process (`node --import bench/profile/thread-cpu.mjs`): at exit, the CPU
 * seconds (user + system) of its main thread and of all its other threads together — V8's collector
 * and compiler threads, libuv's pool, the embedded engine's worker — read from /proc/self/task, as
 * JSON to the file named by PAYEXPORT_BENCH_THREAD_CPU. The job's own code is not touched.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';

const target = process.env.PAYEXPORT_BENCH_THREAD_CPU;
const TICKS_PER_SECOND = 100;

if (target) {
  // the main thread's collections by kind (count, pause ms): which collector the other threads help
  const KINDS = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb' };
  const gc = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = KINDS[entry.detail?.kind] ?? 'other';
      const seen = (gc[kind] ??= { count: 0, ms: 0 });
      seen.count += 1;
      seen.ms = Math.round((seen.ms + entry.duration) * 10) / 10;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    let main = 0;
    let other = 0;
    const byThread = {};
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      if (Number(tid) === process.pid) main += seconds;
      else other += seconds;
      // the thread's name (V8's workers, libuv's pool, the engine's worker) tells what the time was
      // (Node 20 names none but the profiler's, so each thread is listed by its id, in start order:
      // V8's platform workers start with the process, libuv's pool at the first file operation)
      const name = `${tid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`;
      byThread[name] = Math.round(seconds * 100) / 100;
    }
    writeFileSync(target, JSON.stringify({ mainSeconds: main, otherThreadsSeconds: other, byThread, gc }));
  });
}
