/**
 * A TCP proxy on 127.0.0.1 (port 0) in front of a server — here Postgres — that a test can cut:
 * every open connection is destroyed and new ones are refused, as when the database host goes
 * away mid-run (docs/reliability.md#fault-injection: Toxiproxy's reset_peer, done in process). It also tells
 * which local ports its upstream connections use, so the test can find exactly this run's
 * backends in pg_stat_activity (client_port) without touching other tests' sessions.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** the URL with host and port replaced by the proxy's */
  urlThrough(url: string): string;
  /** local ports of the connections to the upstream server that are open now */
  upstreamPorts(): number[];
  /** destroy every connection and stop listening */
  cut(): Promise<void>;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    const remote = connect(upstream.port, upstream.host);
    const pair: [Socket, Socket] = [client, remote];
    pairs.add(pair);
    const drop = (): void => {
      pairs.delete(pair);
      client.destroy();
      remote.destroy();
    };
    client.on('error', drop).on('close', drop);
    remote.on('error', drop).on('close', drop);
    client.pipe(remote);
    remote.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    urlThrough(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    upstreamPorts: () => [...pairs].map(([, remote]) => remote.localPort).filter((p): p is number => p !== undefined),
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [client, remote] of pairs) {
        client.destroy();
        remote.destroy();
      }
      pairs.clear();
      await closed;
    },
  };
}
