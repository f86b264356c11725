// Listening with several accept queues. Since libuv 1.45 (Node 20 and later) a listening
// socket accepts one connection per turn of the event loop (libuv pull request 3696;
// nodejs/performance issue 95). Under a rush a turn carries every request that is ready, so
// when a hundred buyers open their connections at once, the last of them waits a hundred
// turns before its request is even read, long after the requests already accepted were
// answered (it showed as the embedded default's slowest request; BENCHMARKS.md holds that
// figure as it is now). Several sockets bound to the same port with
// SO_REUSEPORT each accept one connection per turn; the kernel spreads new connections over
// them, so a burst is taken in a few turns instead of one turn per connection. Every socket
// hands its connections to the one HTTP server, so nothing else changes. Handing over skips
// Node's `server.maxConnections` (checked on the server's own socket only), so the caps on
// open connections are kept where every connection arrives (connection-gate.ts).
//
// Any process of the same user may bind the port with SO_REUSEPORT too and take a share of
// the connections: run the service as a user of its own (docs/operations/production.md).
//
// SO_REUSEPORT would let a second process bound the same way share the port silently, where
// a second instance started by mistake should fail. So the port is first bound plainly for an
// instant: an address already in use fails there as it always did.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Accept queues per listening address by default (ACCEPT_QUEUES): a burst of 100 new connections is taken in about a dozen turns. */
export const ACCEPT_QUEUES = 16;

export interface Listening {
  /** The port bound (the one asked for, or the one the system chose for 0). */
  port: number;
  /** How many sockets accept connections for this address (1 where SO_REUSEPORT is not available). */
  queues: number;
  /** Stops the extra queues taking connections; call it as the HTTP server stops (its connections stay its own). */
  close(): Promise<void>;
}

function bind(server: Server, options: { port: number; host: string; reusePort?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(options, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Fails as a plain listen would when the address is taken, by anyone, with or without SO_REUSEPORT. */
async function ensureFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await bind(probe, { port, host });
  await close(probe);
}

/**
 * `app.listen` with `queues` accept queues on the address. Where the platform or Node.js
 * cannot share a port (no SO_REUSEPORT, Node.js before 22.12), the app listens as usual
 * with one.
 */
export async function listenWithQueues(
  app: FastifyInstance,
  options: { port: number; host: string },
  queues = ACCEPT_QUEUES,
): Promise<Listening> {
  if (queues <= 1) {
    await app.listen(options);
    return one(app);
  }
  await ensureFree(options.port, options.host);
  try {
    await app.listen({ ...options, reusePort: true } as typeof options);
  } catch (err) {
    // A platform without SO_REUSEPORT refuses the option: listen as usual.
    if (
      (err as NodeJS.ErrnoException).code !== 'ENOTSUP' &&
      (err as NodeJS.ErrnoException).code !== 'EOPNOTSUPP'
    )
      throw err;
    await app.listen(options);
    return one(app);
  }
  const { port, address } = app.server.address() as AddressInfo;
  const extra: Server[] = [];
  // The HTTP server's own sockets take no delay (Node's default for http.Server); so do these.
  const hand = (socket: Socket) => void app.server.emit('connection', socket);
  for (let i = 1; i < queues; i++) {
    const server = createServer({ noDelay: true }, hand);
    try {
      await bind(server, { port, host: address, reusePort: true });
    } catch {
      // Node.js before 22.12 ignores reusePort, so the second socket finds the port taken: one queue.
      break;
    }
    extra.push(server);
  }
  return { port, queues: 1 + extra.length, close: async () => void (await Promise.all(extra.map(close))) };
}

function one(app: FastifyInstance): Listening {
  return { port: (app.server.address() as AddressInfo).port, queues: 1, close: async () => {} };
}
