// Several accept queues on one port (src/http/accept-queues.ts): libuv accepts one
// connection per listening socket per turn of the event loop, so a burst of new connections
// that arrives while the loop is busy is taken one turn per connection with one socket, and
// one turn per queue with several. Counted in turns of the loop, not in time: the loop is
// held while another process opens its connections, then the connections accepted before
// the next turn's check phase are counted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { listenWithQueues } from '../../src/http/accept-queues.js';
import { freePort } from '../helpers/process.js';

const BURST = 64;
// Node.js takes `reusePort` from 22.12 (and 23.1); before, the service listens with one queue.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const reusePort =
  major > 22 || (major === 22 && minor >= 12) ? false : 'Node.js before 22.12 cannot share a port';

// Opens BURST connections, writes the marker file once the kernel has completed all of them,
// then sends a request on each and prints the statuses.
const CLIENT = `
const net = require('node:net'); const fs = require('node:fs');
const [port, marker, n] = process.argv.slice(1); const sockets = []; let open = 0;
for (let i = 0; i < Number(n); i++) {
  const s = net.connect(Number(port), '127.0.0.1', () => { if (++open === Number(n)) { fs.writeFileSync(marker, 'open'); for (const t of sockets) t.write('GET / HTTP/1.1\\r\\nhost: x\\r\\nconnection: close\\r\\n\\r\\n'); } });
  let data = ''; s.on('data', (d) => (data += d)); s.on('end', () => { process.stdout.write(data.slice(9, 12) + '\\n'); });
  sockets.push(s);
}`;

function app(): FastifyInstance {
  const a = Fastify();
  a.get('/', async () => 'ok');
  return a;
}

/** Holds the event loop (no timer, no I/O) until the file exists. */
function holdUntil(file: string): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(file)) Atomics.wait(cell, 0, 0, 2);
}

/** Connections the HTTP server is handed in the first turn after a burst that queued while the loop was held. */
async function acceptedInOneTurn(
  a: FastifyInstance,
  port: number,
): Promise<{ firstTurn: number; statuses: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'accept-'));
  const marker = join(dir, 'open');
  let accepted = 0;
  a.server.on('connection', () => accepted++);
  const child = spawn(process.execPath, ['-e', CLIENT, String(port), marker, String(BURST)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    const firstTurn = await new Promise<number>((resolve) =>
      // From the check phase: held here, then the next turn's poll phase accepts and its check phase counts.
      setImmediate(() => {
        holdUntil(marker);
        setImmediate(() => resolve(accepted));
      }),
    );
    await exited;
    return { firstTurn, statuses: out.trim().split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('accept queues', () => {
  it('with one socket, a queued burst is accepted one connection per turn (why the queues exist)', async () => {
    const a = app();
    const listening = await listenWithQueues(a, { port: 0, host: '127.0.0.1' }, 1);
    try {
      assert.equal(listening.queues, 1);
      const { firstTurn, statuses } = await acceptedInOneTurn(a, listening.port);
      assert.equal(firstTurn, 1, 'libuv accepts one connection per listening socket per turn');
      assert.deepEqual(statuses, Array(BURST).fill('200'));
    } finally {
      await Promise.all([listening.close(), a.close()]);
    }
  });

  it('with sixteen queues, a queued burst is accepted many connections per turn, and every one is answered', {
    skip: reusePort,
  }, async () => {
    const a = app();
    const listening = await listenWithQueues(a, { port: 0, host: '127.0.0.1' });
    try {
      assert.equal(listening.queues, 16);
      const { firstTurn, statuses } = await acceptedInOneTurn(a, listening.port);
      // 64 connections spread by the kernel over 16 sockets leave almost none empty.
      assert.ok(firstTurn >= 8, `${firstTurn} connections accepted in the first turn`);
      assert.deepEqual(statuses, Array(BURST).fill('200'));
    } finally {
      await Promise.all([listening.close(), a.close()]);
    }
  });

  it('an address in use fails as a plain listen does, whoever holds it', async () => {
    // A plain socket holds the port.
    const port = await freePort();
    const plain: Server = createServer();
    await new Promise<void>((r) => plain.listen(port, '127.0.0.1', () => r()));
    try {
      await assert.rejects(listenWithQueues(app(), { port, host: '127.0.0.1' }), { code: 'EADDRINUSE' });
    } finally {
      await new Promise((r) => plain.close(r));
    }
    // An instance with queues holds it: a second instance started by mistake fails, it does not share the port.
    const first = app();
    const listening = await listenWithQueues(first, { port, host: '127.0.0.1' });
    try {
      await assert.rejects(listenWithQueues(app(), { port, host: '127.0.0.1' }), { code: 'EADDRINUSE' });
    } finally {
      await Promise.all([listening.close(), first.close()]);
    }
  });

  it('once closed, no queue takes connections', async () => {
    const a = app();
    const listening = await listenWithQueues(a, { port: 0, host: '127.0.0.1' });
    await Promise.all([listening.close(), a.close()]);
    for (let i = 0; i < 32; i++) assert.equal(await refused(listening.port), true);
  });
});
