/**
 * An HTTP proxy between the simulator's delivery loop and the listener, recording every attempt:
 * when it came, what the listener answered (502 when nothing listened: a listener killed or
 * restarting), how long the answer took, and which payment change it carried. The listener can be
 * killed and restarted on its port behind it while the webhook's URL stays the same.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Attempt {
  /** ms since the proxy started */
  at: number;
  status: number;
  ms: number;
  paymentId: string | null;
  event: string | null;
}

export interface DeliveryProxy {
  url: string;
  attempts: Attempt[];
  close(): Promise<void>;
}

export async function startDeliveryProxy(targetPort: number, path: string): Promise<DeliveryProxy> {
  const started = performance.now();
  const attempts: Attempt[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const t0 = performance.now();
      let paymentId: string | null = null;
      let event: string | null = null;
      try {
        const parsed = JSON.parse(body.toString('utf8')) as { detail?: { event?: string; data?: { id?: string } } };
        paymentId = parsed.detail?.data?.id ?? null;
        event = parsed.detail?.event ?? null;
      } catch {
        // not JSON: recorded without a payment
      }
      const record = (status: number): void => {
        attempts.push({ at: t0 - started, status, ms: performance.now() - t0, paymentId, event });
      };
      const headers = { ...req.headers, 'content-length': String(body.length) };
      const forward = request({ host: '127.0.0.1', port: targetPort, path: req.url ?? path, method: 'POST', headers }, (answer) => {
        answer.resume();
        answer.on('end', () => {
          record(answer.statusCode ?? 0);
          res.writeHead(answer.statusCode ?? 502).end();
        });
      });
      forward.on('error', () => {
        record(502);
        res.writeHead(502).end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    attempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
