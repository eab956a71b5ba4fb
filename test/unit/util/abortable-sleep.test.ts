import { describe, expect, it } from 'vitest';
import { abortableSleep } from '../../../src/util/abortable-sleep.js';

describe('abortableSleep', () => {
  it('resolves after the delay when nothing aborts', async () => {
    await expect(abortableSleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason when aborted during the wait (a minute's backoff does not hold an interrupted run)", async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    const reason = new Error('interrupted by SIGTERM');
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });

  it('rejects at once when already aborted', async () => {
    const controller = new AbortController();
    controller.abort('stop');
    await expect(abortableSleep(60_000, controller.signal)).rejects.toBe('stop');
  });
});
