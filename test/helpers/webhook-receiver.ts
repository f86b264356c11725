// A webhook receiver on loopback that records what arrives.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** What to answer next: a status, a delay before answering, or a redirect. */
  behave(b: { status?: number; delayMs?: number; redirectTo?: string }): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: { status?: number; delayMs?: number; redirectTo?: string } = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = () => {
        if (res.destroyed) return;
        if (behaviour.redirectTo) {
          res.writeHead(302, { location: behaviour.redirectTo });
          res.end();
          return;
        }
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'text/plain' });
        res.end('a body nobody should need to read');
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    behave: (b) => {
      behaviour = b;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
