/**
 * A bounded pool of independent units (wallet streams). Requests are limited separately by the
 * run's one p-limit inside the API client; this only bounds how many sequential chains are open
 * at once, so 1,000 wallets never mean 1,000 pending promises (docs/style.md#2-concurrency).
 * On the first failure no new unit starts; units already running finish (their pages are
 * checkpointed), then the first error is thrown.
 */
export async function runPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && !signal?.aborted && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (failure) throw failure.error;
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
