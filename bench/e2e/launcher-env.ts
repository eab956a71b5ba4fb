/**
 * What bin/payexport (the command users run) puts in the environment before node starts: two malloc
 * arenas, unless the caller set its own (the launcher's comment says why). The benches start node
 * themselves, to add node flags and to run a baseline checkout that has no launcher, so they set it
 * the same way: every run of a pair, baseline and naive exporter included, under the same allocator.
 */
export function launcherEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' };
}
