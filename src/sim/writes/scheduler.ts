/**
 * Timers for the asynchronous state machines of written payments. Tests that do not want to
 * wait call `flush()`, which runs every pending step now, in due order (steps scheduled while
 * flushing run too), so a state machine can be driven to its end deterministically.
 */
interface Step {
  due: number;
  seq: number;
  run: () => void;
  timer: NodeJS.Timeout;
}

export class Scheduler {
  private readonly pending = new Set<Step>();
  private seq = 0;
  private closed = false;

  schedule(delayMs: number, run: () => void): void {
    if (this.closed) return;
    const step: Step = {
      due: Date.now() + delayMs,
      seq: this.seq++,
      run,
      timer: setTimeout(() => {
        this.pending.delete(step);
        run();
      }, delayMs),
    };
    step.timer.unref();
    this.pending.add(step);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Run pending steps now, earliest first — all of them, or at most `maxSteps`. Returns how many ran. */
  flush(maxSteps = Infinity): number {
    let ran = 0;
    for (; this.pending.size > 0 && ran < Math.min(maxSteps, 1_000_000); ran++) {
      const next = [...this.pending].sort((a, b) => a.due - b.due || a.seq - b.seq)[0] as Step;
      clearTimeout(next.timer);
      this.pending.delete(next);
      next.run();
    }
    return ran;
  }

  close(): void {
    this.closed = true;
    for (const step of this.pending) clearTimeout(step.timer);
    this.pending.clear();
  }
}
