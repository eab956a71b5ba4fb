/**
 * A chain writes page N while it already reads page N+1: the storage's latency (a transaction, an
 * fsync) overlaps the next round trip instead of adding to it. Writes still happen one after
 * another, in page order, so checkpoints only move forward and each one follows rows that are
 * durably stored; a run killed meanwhile re-reads at most the page that was not yet written.
 * Holds at most one page besides the one being read.
 */
export class WriteBehind {
  private pending: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;

  /** Waits for the previous write (rethrowing its failure), then starts this one without waiting for it. */
  async write(start: () => Promise<unknown>): Promise<void> {
    await this.flush();
    // the outcome is caught at once (no unhandled rejection while the chain reads) and rethrown by flush()
    this.pending = start().then(
      () => undefined,
      (error: unknown) => {
        this.failure = { error };
      },
    );
  }

  /** Waits for the last write; throws if it failed. */
  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    await pending;
    const failure = this.failure;
    this.failure = null;
    if (failure) throw failure.error;
  }

  /** On the way out after an error elsewhere: let the last write land (its checkpoint is still valid), ignore its outcome. */
  async settle(): Promise<void> {
    await this.flush().catch(() => undefined);
  }
}
