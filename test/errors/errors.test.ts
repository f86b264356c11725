// Every failure is JSON { error, code } with the right status, carries x-request-id,
// and never shows a stack trace: refusals of the framework (validation, JSON, routing,
// body size, content type, the HTTP parser) as much as the service's own; an
// unexpected fault is a bare 500 whose details go to the log under the request id.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { call, organiser, signup, type Reply } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const STACK_LINE = /\bat .*\.(ts|js|mjs|cjs):\d+/;

/** The one error shape: status, JSON, `{ error: string, code }`, a request id, nothing of the framework's. */
function assertError(
  r: { status: number; body: any; headers: Headers; text: string },
  status: number,
  code: string,
): void {
  assert.equal(r.status, status, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json\b/, `${status} ${code} answers JSON`);
  assert.equal(typeof r.body, 'object', r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
  assert.ok(r.body.error.length > 0);
  assert.equal(r.body.code, code, r.text);
  // Fastify's own error shape carries these; ours never does.
  for (const leak of ['stack', 'statusCode', 'message'])
    assert.ok(!(leak in r.body), `no "${leak}" in ${r.text}`);
  assert.ok(!STACK_LINE.test(r.text), `no stack trace in ${r.text}`);
  assert.ok(r.headers.get('x-request-id'), `a request id on the ${status} answer`);
}

/** Sends bytes as they are, for what fetch will not send; reads the answer until the server closes. */
function rawHttp(
  baseUrl: string,
  request: string,
): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // the server may reset after answering; the bytes read count
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(statusLine);
      if (!m) return reject(new Error(`no HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`));
      const headers = new Headers();
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers.append(l.slice(0, i).trim(), l.slice(i + 1).trim());
      }
      const text = rest.join('\r\n\r\n');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // left as text; assertError will say so
      }
      resolve({ status: Number(m[1]), body, headers, text });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
  });
}

describe('framework failures answer { error, code }', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });
  const post = (path: string, raw: string | Blob | undefined, contentType?: string): Promise<Reply> =>
    fetch(server.url + path, {
      method: 'POST',
      body: raw,
      headers: contentType ? { 'content-type': contentType } : {},
    }).then(async (res) => {
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body, headers: res.headers, text };
    });

  it('validation: wrong type, missing field, unknown field → 400 invalid_request naming the field', async () => {
    const wrongType = await call(server.url, 'POST', '/auth/login', { body: { email: 5, password: 'x' } });
    assertError(wrongType, 400, 'invalid_request');
    assert.match(wrongType.body.error, /email/);
    // No coercion: a number is not a string, "5" is not 5.
    assertError(
      await call(server.url, 'POST', '/auth/login', { body: { email: 'a@b.in', password: 12345678 } }),
      400,
      'invalid_request',
    );

    const missing = await call(server.url, 'POST', '/auth/login', { body: { email: 'a@b.in' } });
    assertError(missing, 400, 'invalid_request');
    assert.match(missing.body.error, /password/);

    const unknown = await call(server.url, 'POST', '/auth/login', {
      body: { email: 'a@b.in', password: 'x', admin: true },
    });
    assertError(unknown, 400, 'invalid_request');
    assert.match(unknown.body.error, /admin/);

    // A body that is JSON but not an object.
    assertError(await post('/auth/login', '[]', 'application/json'), 400, 'invalid_request');
    assertError(await post('/auth/login', 'null', 'application/json'), 400, 'invalid_request');

    // The same on a route behind a session: an enum value that is not allowed.
    const account = await signup(server.url);
    const badEnum = await call(server.url, 'POST', '/dashboard/api/keys', {
      token: account.token,
      body: { mode: 'prod', class: 'full' },
    });
    assertError(badEnum, 400, 'invalid_request');
    assert.match(badEnum.body.error, /mode/);
  });

  it('malformed JSON and an empty body declared as JSON → 400 invalid_json', async () => {
    const broken = await post('/auth/login', '{"email": ', 'application/json');
    assertError(broken, 400, 'invalid_json');
    assert.ok(
      !/Unexpected|position/i.test(broken.body.error),
      `the parser's own message stays inside: ${broken.body.error}`,
    );
    assertError(await post('/auth/login', '', 'application/json'), 400, 'invalid_json');
    assertError(
      await post('/auth/login', '{"email":"a@b.in",}', 'application/json; charset=utf-8'),
      400,
      'invalid_json',
    );
  });

  it('unknown route → 404 not_found', async () => {
    assertError(await call(server.url, 'GET', '/api/v1/nothing-here'), 404, 'not_found');
    assertError(await call(server.url, 'POST', '/api/v2/events', { body: {} }), 404, 'not_found');
    assertError(await call(server.url, 'GET', '/'), 404, 'not_found');
  });

  it('wrong method on a known path → 405 method_not_allowed with Allow', async () => {
    const put = await call(server.url, 'PUT', '/api/v1/me');
    assertError(put, 405, 'method_not_allowed');
    assert.equal(put.headers.get('allow'), 'GET');
    const del = await call(server.url, 'DELETE', '/auth/login');
    assertError(del, 405, 'method_not_allowed');
    assert.equal(del.headers.get('allow'), 'POST');
    const patch = await call(server.url, 'PATCH', '/dashboard/api/keys', { body: {} });
    assertError(patch, 405, 'method_not_allowed');
    assert.equal(patch.headers.get('allow'), 'GET, POST');
  });

  it('a body over 1 MiB → 413 payload_too_large, with or without Content-Length', async () => {
    const big = JSON.stringify({ email: 'a@b.in', password: 'x'.repeat(1_100_000) });
    assertError(await post('/auth/login', big, 'application/json'), 413, 'payload_too_large');
    // Chunked: the size is only known while reading.
    const chunked = await rawHttp(
      server.url,
      'POST /auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
        `${Buffer.byteLength(big).toString(16)}\r\n${big}\r\n0\r\n\r\n`,
    );
    assertError(chunked, 413, 'payload_too_large');
  });

  it('a body that is not JSON → 415 unsupported_media_type', async () => {
    assertError(
      await post('/auth/login', 'email=a@b.in&password=x', 'application/x-www-form-urlencoded'),
      415,
      'unsupported_media_type',
    );
    assertError(
      await post('/auth/login', '{"email":"a@b.in","password":"x"}', 'text/plain'),
      415,
      'unsupported_media_type',
    );
    assertError(
      await post('/auth/login', '--x--', 'multipart/form-data; boundary=x'),
      415,
      'unsupported_media_type',
    );
    // A body with no Content-Type at all (fetch sends an untyped Blob without one).
    assertError(await post('/auth/login', new Blob(['{"email":"a@b.in"}'])), 415, 'unsupported_media_type');
  });

  it('a path the router cannot read → 400 invalid_url, or 414 uri_too_long for an over-long segment', async () => {
    assertError(await call(server.url, 'GET', '/api/v1/me/%zz'), 400, 'invalid_url');
    assertError(await call(server.url, 'GET', '/api/v1/events/%E0%A4%A'), 400, 'invalid_url');
    assertError(await call(server.url, 'GET', `/api/v1/events/${'e'.repeat(101)}`), 414, 'uri_too_long');
  });

  it('what the HTTP parser refuses → 400 bad_http_request, 431 headers_too_large', async () => {
    assertError(await rawHttp(server.url, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'bad_http_request');
    assertError(
      await rawHttp(
        server.url,
        `GET /healthz HTTP/1.1\r\nHost: t\r\nX-Filler: ${'f'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
      ),
      431,
      'headers_too_large',
    );
  });

  it('keeps a sane caller-supplied x-request-id, on success and failure, and replaces an unsafe one', async () => {
    const kept = await call(server.url, 'GET', '/healthz', { headers: { 'x-request-id': 'door-7-scan-42' } });
    assert.equal(kept.status, 200);
    assert.equal(kept.headers.get('x-request-id'), 'door-7-scan-42');
    for (const [method, path] of [
      ['GET', '/api/v1/me'],
      ['GET', '/api/v1/nothing-here'],
      ['PUT', '/api/v1/me'],
      ['GET', '/api/v1/me/%zz'],
    ] as const) {
      const r = await call(server.url, method, path, { headers: { 'x-request-id': 'caller.id_1' } });
      assert.ok(r.status >= 400, `${method} ${path}`);
      assert.equal(r.headers.get('x-request-id'), 'caller.id_1', `${method} ${path} echoes the caller's id`);
    }
    for (const unsafe of ['bad id with spaces;and=more', 'x'.repeat(65)]) {
      const replaced = await call(server.url, 'GET', '/healthz', { headers: { 'x-request-id': unsafe } });
      const id = replaced.headers.get('x-request-id');
      assert.ok(id && id !== unsafe, 'an unsafe id is replaced');
      assert.match(id, /^[A-Za-z0-9._-]{1,64}$/);
    }
    // Ids the service makes differ from request to request.
    const a = (await call(server.url, 'GET', '/healthz')).headers.get('x-request-id');
    const b = (await call(server.url, 'GET', '/healthz')).headers.get('x-request-id');
    assert.notEqual(a, b);
  });
});

describe('unexpected faults', () => {
  const lines: string[] = [];
  let server: TestServer;
  before(async () => {
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    server = await startServer({ logger });
  });
  after(async () => {
    await server.close();
  });

  it('answer a bare 500 { error: "internal error", code: "internal" } and log the fault under the request id', async () => {
    const org = await organiser(server.url);
    assert.equal((await call(server.url, 'GET', '/api/v1/me', { key: org.key })).status, 200);
    // The database goes away under the service: a fault of ours, not the caller's.
    await server.deps.db.destroy();

    // The key is still cached, so the fault happens in the route's handler ...
    const inHandler = await call(server.url, 'GET', '/api/v1/me', {
      key: org.key,
      headers: { 'x-request-id': 'fault-1' },
    });
    // ... and with the cache emptied, in the auth hook's key lookup.
    server.deps.keyCache.forget(org.keyId);
    const inHook = await call(server.url, 'GET', '/api/v1/me', {
      key: org.key,
      headers: { 'x-request-id': 'fault-2' },
    });

    for (const [r, id] of [
      [inHandler, 'fault-1'],
      [inHook, 'fault-2'],
    ] as const) {
      assert.equal(r.status, 500, r.text);
      assert.deepEqual(
        r.body,
        { error: 'internal error', code: 'internal' },
        'nothing of the fault in the answer',
      );
      assert.match(r.headers.get('content-type') ?? '', /^application\/json\b/);
      assert.equal(r.headers.get('x-request-id'), id);
      assert.ok(!STACK_LINE.test(r.text));

      const logged = lines
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'internal error' && l.reqId === id);
      assert.equal(logged.length, 1, `one log line for ${id}`);
      assert.equal(logged[0].level, 50, 'logged as an error');
      assert.equal(typeof logged[0].err?.message, 'string', 'the log has the fault');
      assert.match(logged[0].err.stack ?? '', STACK_LINE, 'and its stack');
    }
    assert.ok(!lines.join('\n').includes(org.key), 'the API key never reaches the log');
  });

  it('a readiness check on a dead database answers 503 database_unavailable', async () => {
    await server.deps.db.destroy(); // already gone after the test above; a second destroy is a no-op
    assertError(await call(server.url, 'GET', '/readyz'), 503, 'database_unavailable');
    // Liveness does not depend on it.
    assert.equal((await call(server.url, 'GET', '/healthz')).status, 200);
  });
});
