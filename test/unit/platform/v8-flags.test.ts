/**
 * The V8 flags the CLI sets at start-up (src/platform/v8-flags.ts): each is left out when the user's
 * own node flags name its setting, and each is one this Node's V8 still knows — V8 ignores an
 * unknown flag set from inside the process, so a Node upgrade that drops one would otherwise lose
 * it silently; node refuses it on its command line (exit 9), which is what is checked here.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, V8_SETTINGS, v8FlagsFor } from '../../../src/platform/v8-flags.js';

describe('the start-up V8 flags', () => {
  it('are the heap growth when the user named none (other node flags do not count as a choice)', () => {
    expect(v8FlagsFor(['--enable-source-maps', '--max-old-space-size=300'])).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });

  it('leave a setting the user chose in their node flags alone, in either spelling', () => {
    expect(v8FlagsFor(['--heap-growing-percent=80'])).toEqual([]);
    expect(v8FlagsFor(['--max-old-space-size=300', '--heap_growing_percent=20'])).toEqual([]);
  });

  it('are each known to this Node’s V8 (node refuses an unknown one with exit 9)', () => {
    const control = spawnSync(process.execPath, ['--no-such-payexport-flag', '-e', '0']);
    expect(control.status).toBe(9);
    for (const { flag } of V8_SETTINGS) {
      const run = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
      expect({ flag, status: run.status, stderr: run.stderr }).toEqual({ flag, status: 0, stderr: '' });
    }
  });
});
