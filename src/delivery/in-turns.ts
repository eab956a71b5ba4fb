/**
 * Work over a list with at most `workers` items in flight: each worker takes the next item when it
 * is done with its own (style.md#2-concurrency: no promise per item, however long the list). The
 * first failure stops the others from taking more and is thrown once the items in flight settle.
 */
export async function inTurns<T>(items: readonly T[], workers: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
