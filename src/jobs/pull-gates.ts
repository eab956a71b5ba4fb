/**
 * What the report behind the pull waits on (docs/extraction.md#the-report-behind-the-pull): the
 * sizing stage (summaries and bills, which the reconciler needs before any wallet), each wallet
 * once all of its streams are in the snapshot, and the end of the pull (for everything that needs
 * every wallet). The pull opens them; a failed pull fails every one still waiting, so the report
 * stops where it stands and its folder is never published.
 */
import type { PullPacing } from './report-stage.js';

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // a gate nobody waited on must not become an unhandled rejection when the pull fails
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class PullGates implements PullPacing {
  private readonly sizedGate = deferred();
  private readonly pulledGate = deferred();
  private readonly walletGates = new Map<string, Deferred>();

  /** `walletIds`: the wallets the pull reads; any other wallet the report meets waits for the end of the pull */
  constructor(walletIds: readonly string[]) {
    for (const id of walletIds) this.walletGates.set(id, deferred());
  }

  sized(): Promise<void> {
    return this.sizedGate.promise;
  }

  walletReady(walletId: string): Promise<void> {
    return this.walletGates.get(walletId)?.promise ?? this.pulledGate.promise;
  }

  pulled(): Promise<void> {
    return this.pulledGate.promise;
  }

  openSized(): void {
    this.sizedGate.resolve();
  }

  openWallet(walletId: string): void {
    this.walletGates.get(walletId)?.resolve();
  }

  /** the pull ended: every gate opens (a wallet whose completion was never signalled has nothing more coming) */
  openAll(): void {
    this.sizedGate.resolve();
    for (const gate of this.walletGates.values()) gate.resolve();
    this.pulledGate.resolve();
  }

  /** the pull failed: whatever still waits fails with its error (an opened gate stays open) */
  fail(error: unknown): void {
    this.sizedGate.reject(error);
    for (const gate of this.walletGates.values()) gate.reject(error);
    this.pulledGate.reject(error);
  }
}
