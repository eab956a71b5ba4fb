/**
 * The fake API with its lifetime tied to the test, in the manner of stripe-node's test server
 * helper: the server listens on 127.0.0.1:0 and is closed when the test (or the callback) ends,
 * passed or failed, so no suite keeps its own list of servers to close.
 */
import { onTestFinished } from 'vitest';
import { startFakeApi, type FakeApiServer, type Handler } from './fake-api-server.js';

/** Starts a fake API for the running test; it is closed when that test finishes. Call it inside a test. */
export async function serveFakeApi(handler: Handler): Promise<FakeApiServer> {
  const server = await startFakeApi(handler);
  onTestFinished(() => server.close());
  return server;
}

/** Runs `use` against a fake API and closes the server when `use` settles, even when it throws. */
export async function withFakeApi<T>(handler: Handler, use: (server: FakeApiServer) => Promise<T>): Promise<T> {
  const server = await startFakeApi(handler);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}
