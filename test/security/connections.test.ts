// Connections cannot be held open (§14): the request must arrive within REQUEST_TIMEOUT_MS
// (30 s; headers within 10 s), idle keep-alive connections close after 72 s, and at most
// MAX_CONNECTIONS are open at once. The tests wait for the server to close the socket; none
// sleeps or measures time.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

interface Conn {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
  /** Resolves once the server's answer so far contains `text` `times` times. */
  received(text: string, times?: number): Promise<void>;
}

function open(url: string): Promise<Conn> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const waiting: { text: string; times: number; done: () => void }[] = [];
    const has = (text: string, times: number) => answer.split(text).length > times;
    const closed = new Promise<string>((r) => socket.on('close', () => r(answer)));
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      for (const w of waiting.splice(0)) if (has(w.text, w.times)) w.done();
      else waiting.push(w);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
    socket.on('connect', () =>
      resolve({
        socket,
        closed,
        received: (text, times = 1) => (has(text, times) ? Promise.resolve() : new Promise((done) => waiting.push({ text, times, done }))),
      }),
    );
  });
}

describe('server limits on connections: the defaults', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('the server carries a 30 s request timeout, 10 s for headers, 72 s keep-alive and 10,000 connections', () => {
    const s = server.app.server;
    assert.equal(s.requestTimeout, 30_000);
    assert.equal(s.headersTimeout, 10_000);
    assert.equal(s.keepAliveTimeout, 72_000);
    assert.equal(s.maxConnections, 10_000);
  });
});

describe('server limits on connections, configured small', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { REQUEST_TIMEOUT_MS: '300', MAX_CONNECTIONS: '3' } });
  });
  after(async () => {
    await server.close();
  });

  it('Content-Length: 100 and then one byte: the server answers 408 and closes the connection', { timeout: 20_000 }, async () => {
    const c = await open(server.url);
    c.socket.write('POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const answer = await c.closed;
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'request_timeout');
  });

  it('headers that never end: the server answers 408 and closes the connection', { timeout: 20_000 }, async () => {
    const c = await open(server.url);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const answer = await c.closed;
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
  });

  it('at most MAX_CONNECTIONS are open at once: one more is closed unanswered', { timeout: 20_000 }, async () => {
    const held: Conn[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await open(server.url);
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await c.received('\r\n\r\n'); // the server has taken this connection
      held.push(c);
    }
    const extra = await open(server.url);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(await extra.closed, '', 'the connection over the cap was answered');
    // The held connections still work.
    held[0]!.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await held[0]!.received('HTTP/1.1 200', 2);
    for (const c of held) c.socket.destroy();
  });
});
