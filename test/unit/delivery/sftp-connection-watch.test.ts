import { describe, expect, it } from 'vitest';
import { connectionWatch } from '../../../src/delivery/sftp-tree.js';

/**
 * The promise every SFTP operation races (src/delivery/sftp-tree.ts): ssh2-sftp-client calls these
 * callbacks for an end, a close or an error it did not expect, and an operation under way then fails
 * with the reason instead of waiting for the attempt's deadline.
 */
describe('connectionWatch', () => {
  it('stays pending while the connection lives, so an operation settles by its own answer', async () => {
    const { lost } = connectionWatch();
    await expect(Promise.race([lost, Promise.resolve('answered')])).resolves.toBe('answered');
  });

  it.each([
    ['end', 'the server ended the connection'],
    ['close', 'the server closed the connection'],
  ] as const)('an unexpected %s fails what is waiting, in words', async (event, words) => {
    const { lost, callbacks } = connectionWatch();
    const waiting = Promise.race([new Promise(() => undefined), lost]);
    callbacks[event]();
    await expect(waiting).rejects.toThrow(words);
  });

  it("a socket error fails what is waiting with the error itself (its code names the cause), and the first cause stands", async () => {
    const { lost, callbacks } = connectionWatch();
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    callbacks.error(reset);
    callbacks.close();
    await expect(lost).rejects.toBe(reset);
  });

  it('nobody waiting when the server goes is no unhandled rejection: the next operation meets it', async () => {
    const { lost, callbacks } = connectionWatch();
    callbacks.end();
    await new Promise((resolve) => setImmediate(resolve));
    await expect(Promise.race([new Promise(() => undefined), lost])).rejects.toThrow('ended');
  });
});
