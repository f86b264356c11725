// A body over the 1 MiB limit answers 413 { error, code }, and the client can read it:
// the service drains a bounded amount of the body before it closes, rather than
// resetting the connection under a client that is still sending.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

function rawRequest(url: string, head: string, body: Buffer, chunk = 64 * 1024): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', (err) => (answer ? resolve(answer) : reject(err)));
    socket.on('close', () => resolve(answer));
    socket.on('connect', async () => {
      socket.write(head);
      // Send the body the way a real client does: in chunks, waiting for the socket to drain.
      for (let i = 0; i < body.length && !socket.destroyed; i += chunk) {
        if (!socket.write(body.subarray(i, i + chunk))) await new Promise((r) => socket.once('drain', r));
      }
    });
  });
}

describe('over-limit bodies', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  for (const size of [2 * 1024 * 1024, 6 * 1024 * 1024]) {
    it(`a ${size / 1024 / 1024} MiB body with Content-Length reads back 413 { error, code }`, async () => {
      const body = Buffer.alloc(size, 'a');
      const head = `POST /auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
      const answer = await rawRequest(server.url, head, body);
      assert.match(answer, /^HTTP\/1\.1 413 /, answer.slice(0, 200));
      const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      assert.equal(json.code, 'payload_too_large');
      assert.equal(typeof json.error, 'string');
    });
  }

  it('a chunked body over the limit reads back 413 too', async () => {
    const size = 3 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 'a');
    const chunks: Buffer[] = [];
    for (let i = 0; i < size; i += piece.length)
      chunks.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    chunks.push(Buffer.from('0\r\n\r\n'));
    const head =
      'POST /auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const answer = await rawRequest(server.url, head, Buffer.concat(chunks));
    assert.match(answer, /^HTTP\/1\.1 413 /, answer.slice(0, 200));
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'payload_too_large');
  });
});

describe('over-limit bodies, client that reads only after sending everything', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  // Such a client (many synchronous HTTP libraries) gets EPIPE/ECONNRESET and no answer
  // when the service closes while it is still writing.
  function writeThenRead(size: number): Promise<{ answer: string; error?: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.pause();
      let answer = '';
      let error: string | undefined;
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', (err) => (error ??= err.message));
      socket.on('close', () => resolve({ answer, ...(error ? { error } : {}) }));
      socket.on('connect', async () => {
        socket.write(
          `POST /auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
        );
        const piece = Buffer.alloc(64 * 1024, 'a');
        for (let i = 0; i < size && !socket.destroyed && error === undefined; i += piece.length) {
          if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r).once('error', r));
        }
        socket.resume();
      });
    });
  }

  for (const mib of [4, 12]) {
    it(`${mib} MiB: the 413 { error, code } is read, not a reset`, async () => {
      const { answer, error } = await writeThenRead(mib * 1024 * 1024);
      assert.match(answer, /^HTTP\/1\.1 413 /, `no answer read (${error ?? 'closed'})`);
      const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      assert.deepEqual(Object.keys(json).sort(), ['code', 'error']);
      assert.equal(json.code, 'payload_too_large');
    });
  }
});
