/** The fake API's lifetime helpers close the server whatever the test does, as a leak would hang the run. */
import { describe, expect, it } from 'vitest';
import { sendJson, type Handler } from '../../support/api/fake-api-server.js';
import { serveFakeApi, withFakeApi } from '../../support/api/serve-fake-api.js';

const ok: Handler = (_req, res) => sendJson(res, 200, { ok: true });

/** true when the server still accepts connections */
async function listening(origin: string): Promise<boolean> {
  try {
    await (await fetch(`${origin}/v1/ping`)).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

describe('withFakeApi', () => {
  it('serves the callback and closes the server when it returns', async () => {
    let origin = '';
    const value = await withFakeApi(ok, async (server) => {
      origin = server.origin;
      const body: unknown = await (await fetch(`${server.baseUrl}/x`)).json();
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/x']);
      return body;
    });
    expect(value).toEqual({ ok: true });
    expect(await listening(origin)).toBe(false);
  });

  it('closes the server when the callback throws, and passes the error on', async () => {
    let origin = '';
    const failing = withFakeApi(ok, async (server) => {
      origin = server.origin;
      expect(await listening(origin)).toBe(true);
      throw new Error('the test failed');
    });
    await expect(failing).rejects.toThrow('the test failed');
    expect(await listening(origin)).toBe(false);
  });
});

describe('serveFakeApi', () => {
  let fromFirstTest = '';

  it('serves for the whole test', async () => {
    const server = await serveFakeApi(ok);
    fromFirstTest = server.origin;
    expect(await listening(server.origin)).toBe(true);
  });

  it("has closed the previous test's server by the time the next test runs", async () => {
    expect(fromFirstTest).not.toBe('');
    expect(await listening(fromFirstTest)).toBe(false);
  });
});
