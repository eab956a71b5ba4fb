import { describe, expect, it } from 'vitest';
import { errorGist } from '../../support/reporters/failed-tests.js';

/** The end-of-run list of failures names each one in a few lines a CI log's last screen holds. */
describe('errorGist', () => {
  it("gives the error's name, its message's first lines and the first frame in src/ or test/", () => {
    const message = ['expected 2 to be 3', 'line 2', 'line 3', 'line 4', 'line 5', 'line 6', 'line 7 is cut'].join('\n');
    const stack = ['AssertionError: expected 2 to be 3', '    at node:internal/x:1:1', '    at /repo/node_modules/chai/a.js:3:3', '    at /repo/test/unit/a.test.ts:12:5'].join('\n');
    const gist = errorGist({ name: 'AssertionError', message, stack });
    expect(gist.split('\n')[0]).toBe('AssertionError: expected 2 to be 3');
    expect(gist).toContain('line 6');
    expect(gist).not.toContain('line 7 is cut');
    expect(gist.split('\n').at(-1)!.trim()).toBe('at /repo/test/unit/a.test.ts:12:5');
  });

  it('stands without a stack or a name', () => {
    expect(errorGist({ message: 'worker exited', name: undefined as unknown as string, stack: undefined })).toBe('Error: worker exited');
  });
});
