/**
 * Read-ahead for the report's database reads: while one wallet's rows are rendered, the next
 * wallet's first batch is already on its way. Without it, 1,000 wallets × three passes each wait
 * for a query round trip with the CPU idle (bench: a third of the report stage's wall time).
 */

/** An async iterable whose first item is requested now, not when the consumer gets to it. */
export function startEarly<T>(source: AsyncIterable<T>): AsyncIterable<T> {
  const iterator = source[Symbol.asyncIterator]();
  let first: Promise<IteratorResult<T>> | null = iterator.next();
  // A consumer that never comes (an error elsewhere) must not turn a failed read into an unhandled rejection.
  first.catch(() => undefined);
  let taken = false;
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      if (taken) throw new Error('startEarly: an early-started stream can be iterated once');
      taken = true;
      return {
        next: () => {
          const pending = first;
          first = null;
          return pending ?? iterator.next();
        },
        return: async (value?: unknown) => {
          first = null;
          await iterator.return?.(value);
          return { done: true, value: value as T };
        },
      };
    },
  };
}

/** Each item with its streams, opened one item ahead: `open` for item i+1 runs when item i is handed out. */
export function* eachOpenedAhead<T, S>(items: readonly T[], open: (item: T) => S): Generator<[T, S]> {
  let next = items.length > 0 ? open(items[0] as T) : undefined;
  for (let i = 0; i < items.length; i++) {
    const current = next as S;
    next = i + 1 < items.length ? open(items[i + 1] as T) : undefined;
    yield [items[i] as T, current];
  }
}

/**
 * Sources whose reads overlap nothing: the spool's reads are decoding on the same thread, and
 * started early they only keep the next wallet's decoded rows alive while this one is written, long
 * enough to outlive the young generation. A database's reads wait on a round trip, which reading
 * ahead overlaps. The schedule is this module's to know, not a property of the data's interface.
 */
const readOnTheirTurn = new WeakSet<object>();

/** Marks a source whose reads are CPU on the caller's thread: its streams are read when their turn comes. */
export function readsOnTheirTurn(source: object): void {
  readOnTheirTurn.add(source);
}

/** `startEarly` for a source whose reads overlap something (a database's round trip), else each stream as it is. */
export function readAheadFor(source: object): <T>(stream: AsyncIterable<T>) => AsyncIterable<T> {
  return readOnTheirTurn.has(source) ? (stream) => stream : startEarly;
}
