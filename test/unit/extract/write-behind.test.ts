import { describe, expect, it } from 'vitest';
import { WriteBehind } from '../../../src/extract/write-behind.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WriteBehind', () => {
  it('returns before the write lands, but starts the next only after it', async () => {
    const events: string[] = [];
    let release!: () => void;
    const writes = new WriteBehind();
    await writes.write(async () => {
      events.push('start 1');
      await new Promise<void>((resolve) => (release = resolve));
      events.push('end 1');
    });
    events.push('reading page 2');
    const second = writes.write(async () => {
      events.push('start 2');
    });
    await tick();
    expect(events).toEqual(['start 1', 'reading page 2']);
    release();
    await second;
    await writes.flush();
    expect(events).toEqual(['start 1', 'reading page 2', 'end 1', 'start 2']);
  });

  it('rethrows a failed write at the next write or flush, never as an unhandled rejection', async () => {
    const writes = new WriteBehind();
    await writes.write(async () => {
      throw new Error('disk full');
    });
    await tick();
    await expect(writes.write(async () => undefined)).rejects.toThrow('disk full');
    await writes.write(async () => {
      throw new Error('again');
    });
    await expect(writes.flush()).rejects.toThrow('again');
  });

  it('settle() waits for the last write and swallows its outcome', async () => {
    const writes = new WriteBehind();
    let landed = false;
    await writes.write(async () => {
      await tick();
      landed = true;
      throw new Error('ignored');
    });
    await writes.settle();
    expect(landed).toBe(true);
    await expect(writes.flush()).resolves.toBeUndefined();
  });
});
