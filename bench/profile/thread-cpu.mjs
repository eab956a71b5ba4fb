/**
 * A preload for the job's process (`node --import bench/profile/thread-cpu.mjs`): at exit, the CPU
 * seconds (user + system) of its main thread and of all its other threads together — V8's collector
 * and compiler threads, libuv's pool, the embedded engine's worker — read from /proc/self/task, as
 * JSON to the file named by PAYEXPORT_BENCH_THREAD_CPU. The job's own code is not touched.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const target = process.env.PAYEXPORT_BENCH_THREAD_CPU;
const TICKS_PER_SECOND = 100;

if (target) {
  process.on('exit', () => {
    let main = 0;
    let other = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      if (Number(tid) === process.pid) main += seconds;
      else other += seconds;
    }
    writeFileSync(target, JSON.stringify({ mainSeconds: main, otherThreadsSeconds: other }));
  });
}
