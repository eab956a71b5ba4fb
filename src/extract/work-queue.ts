/**
 * The pull's pool of chains: at most `width` units run at once, the LONGEST first (largest
 * priority = estimated requests), and a running unit may add more (a wallet split into time
 * slices). Longest-first keeps the run's end from waiting on one long chain that started late.
 *
 * Requests are bounded separately, by the run's one limiter inside the API client; this bounds how
 * many sequential chains are open (docs/style.md#2-concurrency), so 1,000 wallets never mean 1,000 pending promises.
 * On the first failure no new unit starts; running units finish (their pages are checkpointed),
 * then the first error is thrown. Same on abort, with the signal's reason.
 */
export class WorkQueue<U> {
  private readonly heap: Array<{ unit: U; priority: number; seq: number }> = [];
  private seq = 0;
  private running = 0;
  private failure: { error: unknown } | undefined;
  private idle: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(
    private readonly width: number,
    private readonly work: (unit: U) => Promise<void>,
    private readonly signal?: AbortSignal,
  ) {}

  /** Adds a unit; among equal priorities, first in first out. */
  push(unit: U, priority: number): void {
    this.heap.push({ unit, priority, seq: this.seq++ });
    this.siftUp(this.heap.length - 1);
    this.pump();
  }

  /** Resolves once every unit (including those added meanwhile) has run. */
  drain(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.idle = { resolve, reject };
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < Math.max(1, this.width) && this.heap.length > 0 && this.failure === undefined && !this.signal?.aborted) {
      const { unit } = this.pop();
      this.running++;
      new Promise<void>((resolve) => resolve(this.work(unit)))
        .catch((error: unknown) => {
          this.failure ??= { error };
        })
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
    this.settleIfIdle();
  }

  private settleIfIdle(): void {
    if (!this.idle || this.running > 0) return;
    const stopped = this.failure !== undefined || this.signal?.aborted === true;
    if (!stopped && this.heap.length > 0) return;
    const idle = this.idle;
    this.idle = undefined;
    if (this.failure) idle.reject(this.failure.error);
    else if (this.signal?.aborted) idle.reject(this.signal.reason ?? new Error('aborted'));
    else idle.resolve();
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.priority > y.priority || (x.priority === y.priority && x.seq < y.seq);
  }

  private siftUp(index: number): void {
    for (let i = index; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private pop(): { unit: U; priority: number; seq: number } {
    const top = this.heap[0]!;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < this.heap.length && this.before(left, best)) best = left;
        if (right < this.heap.length && this.before(right, best)) best = right;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }

  private swap(a: number, b: number): void {
    const t = this.heap[a]!;
    this.heap[a] = this.heap[b]!;
    this.heap[b] = t;
  }
}
