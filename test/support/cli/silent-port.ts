import { createServer, type Socket } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that accepts connections and never says a word: a database or API
 * that hangs after connect. `connected` resolves at the first connection.
 */
export interface SilentPort {
  port: number;
  connected: Promise<void>;
  close(): Promise<void>;
}

export async function silentPort(): Promise<SilentPort> {
  const sockets = new Set<Socket>();
  let onConnect: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (onConnect = resolve));
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onConnect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    connected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
