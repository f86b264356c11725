// Connections cannot be held open (docs/decisions/14-trust-and-safety-second-round.md, docs/decisions/21-trust-and-safety-third-round.md): the request must arrive within REQUEST_TIMEOUT_MS
// (30 s; headers within 10 s), idle keep-alive connections close after 72 s, at most
// MAX_CONNECTIONS are open at once whichever accept queue took them, and at most
// MAX_CONNECTIONS_PER_ADDRESS from one client address. The test server listens as `npm start`
// does, on ACCEPT_QUEUES sockets. The tests wait for the server to answer or close each socket;
// none sleeps or measures time.
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

function open(url: string, localAddress?: string): Promise<Conn> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      port: Number(port),
      host: '127.0.0.1',
      ...(localAddress ? { localAddress } : {}),
    });
    let answer = '';
    const waiting: { text: string; times: number; done: () => void }[] = [];
    const has = (text: string, times: number) => answer.split(text).length > times;
    const closed = new Promise<string>((r) => socket.on('close', () => r(answer)));
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      for (const w of waiting.splice(0))
        if (has(w.text, w.times)) w.done();
        else waiting.push(w);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
    socket.on('connect', () =>
      resolve({
        socket,
        closed,
        received: (text, times = 1) =>
          has(text, times) ? Promise.resolve() : new Promise((done) => waiting.push({ text, times, done })),
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

  it('the server carries a 30 s request timeout, 10 s for headers, 72 s keep-alive, 10,000 connections, 256 per address, 16 accept queues', () => {
    const s = server.app.server;
    assert.equal(s.requestTimeout, 30_000);
    assert.equal(s.headersTimeout, 10_000);
    assert.equal(s.keepAliveTimeout, 72_000);
    assert.equal(server.deps.config.http.maxConnections, 10_000);
    assert.equal(server.deps.config.http.maxConnectionsPerAddress, 256);
    assert.equal(server.deps.config.http.acceptQueues, 16);
    assert.equal(server.acceptQueues, 16, 'the test server listens as npm start does');
    // Node's own cap would hold on the main socket only: the gate counts every connection instead.
    assert.ok(
      s.maxConnections === undefined || s.maxConnections === null || s.maxConnections === Infinity,
      String(s.maxConnections),
    );
  });
});

/** Opens `n` connections at once and sends a request on each: how many were answered, and how many closed unanswered. */
async function burst(
  url: string,
  n: number,
  localAddress?: string,
): Promise<{ answered: Conn[]; refused: number }> {
  const conns = await Promise.all(Array.from({ length: n }, () => open(url, localAddress)));
  const outcomes = await Promise.all(
    conns.map((c) => {
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      return Promise.race([
        c.received('\r\n\r\n').then(() => 'answered' as const),
        c.closed.then((text) => (text === '' ? ('refused' as const) : ('answered' as const))),
      ]);
    }),
  );
  return {
    answered: conns.filter((_, i) => outcomes[i] === 'answered'),
    refused: outcomes.filter((o) => o === 'refused').length,
  };
}

describe('MAX_CONNECTIONS counts every accept queue', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { MAX_CONNECTIONS: '20' } });
  });
  after(async () => {
    await server.close();
  });

  it('40 keep-alive connections opened at once: 20 are answered and held, 20 closed unanswered, whichever socket took them', {
    timeout: 30_000,
  }, async () => {
    assert.ok(server.acceptQueues > 1, 'the port has several accept queues, as in production');
    const { answered, refused } = await burst(server.url, 40);
    try {
      assert.equal(answered.length, 20, `${answered.length} answered`);
      assert.equal(refused, 20);
      assert.equal(server.app.connections.open, 20);
      // Once one closes, one more may come in.
      const gone = answered.pop()!;
      gone.socket.destroy();
      await gone.closed;
      while (server.app.connections.open > 19) await new Promise((r) => setImmediate(r));
      const again = await burst(server.url, 2);
      assert.equal(again.answered.length, 1);
      answered.push(...again.answered);
    } finally {
      for (const c of answered) c.socket.destroy();
    }
  });
});

describe('MAX_CONNECTIONS_PER_ADDRESS', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { MAX_CONNECTIONS_PER_ADDRESS: '5' } });
  });
  after(async () => {
    await server.close();
  });

  it('one address holds at most 5 connections; another address is not affected', {
    timeout: 30_000,
  }, async () => {
    const first = await burst(server.url, 10);
    const second = await burst(server.url, 3, '127.0.0.2');
    try {
      assert.equal(first.answered.length, 5);
      assert.equal(first.refused, 5);
      assert.equal(second.answered.length, 3, 'another client address has its own count');
      assert.equal(server.app.connections.openFrom('127.0.0.1'), 5);
      assert.equal(server.app.connections.openFrom('127.0.0.2'), 3);
    } finally {
      for (const c of [...first.answered, ...second.answered]) c.socket.destroy();
    }
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

  it('Content-Length: 100 and then one byte: the server answers 408 and closes the connection', {
    timeout: 20_000,
  }, async () => {
    const c = await open(server.url);
    c.socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const answer = await c.closed;
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'request_timeout');
  });

  it('headers that never end: the server answers 408 and closes the connection', {
    timeout: 20_000,
  }, async () => {
    const c = await open(server.url);
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const answer = await c.closed;
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
  });

  it('at most MAX_CONNECTIONS are open at once: one more is closed unanswered', {
    timeout: 20_000,
  }, async () => {
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
