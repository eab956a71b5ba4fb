/**
 * Group commit: work items handed in while an earlier group is being written are written together,
 * in one call of `writeGroup` (one transaction), instead of one call each.
 *
 * Nothing waits to be grouped: an item handed in while nothing is being written goes at once, alone;
 * items that arrive meanwhile form the next group (at most `maxItems` of them, in arrival order). On
 * an engine that runs one transaction at a time (the embedded one), concurrent streams' pages queue
 * behind each other anyway, so grouping them costs no latency and saves each page's own statements
 * (docs/benchmarks.md, "Round 4").
 *
 * When `writeGroup` fails with an error `splitOn` accepts (a group whose items cannot go together,
 * after its transaction rolled back), each item of that group is written alone by `writeOne`, in
 * order; any other error fails every item of the group.
 */
export interface CommitGroupOptions<I, T> {
  writeGroup: (items: readonly I[]) => Promise<T[]>;
  writeOne: (item: I) => Promise<T>;
  splitOn: (error: unknown) => boolean;
  /** items per group (a group is one transaction; this bounds its size) */
  maxItems: number;
  /** an item's weight against `maxWeight` (rows), so that a group of large pages stays small */
  weight?: (item: I) => number;
  maxWeight?: number;
}

interface Waiting<I, T> {
  item: I;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export interface CommitGroup<I, T> {
  submit(item: I): Promise<T>;
}

export function createCommitGroup<I, T>(options: CommitGroupOptions<I, T>): CommitGroup<I, T> {
  const queue: Waiting<I, T>[] = [];
  let writing = false;

  const take = (): Waiting<I, T>[] => {
    const group: Waiting<I, T>[] = [];
    let weight = 0;
    while (queue.length > 0 && group.length < options.maxItems) {
      const next = queue[0] as Waiting<I, T>;
      const itemWeight = options.weight?.(next.item) ?? 0;
      // the first item always goes, however heavy
      if (group.length > 0 && options.maxWeight !== undefined && weight + itemWeight > options.maxWeight) break;
      group.push(next);
      queue.shift();
      weight += itemWeight;
    }
    return group;
  };

  const writeAlone = async (group: readonly Waiting<I, T>[]): Promise<void> => {
    for (const waiting of group) {
      try {
        waiting.resolve(await options.writeOne(waiting.item));
      } catch (error) {
        waiting.reject(error);
      }
    }
  };

  const drain = async (): Promise<void> => {
    writing = true;
    try {
      while (queue.length > 0) {
        const group = take();
        try {
          const results = await options.writeGroup(group.map((waiting) => waiting.item));
          group.forEach((waiting, index) => waiting.resolve(results[index] as T));
        } catch (error) {
          if (options.splitOn(error)) await writeAlone(group);
          else for (const waiting of group) waiting.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  };

  return {
    submit(item: I): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}
