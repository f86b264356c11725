// Every failure is JSON { error, code } with the right status; never a stack trace.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { call, organiser } from '../helpers/http.js';
import { startServer, testEnv, type TestServer } from '../helpers/server.js';

function assertErrorShape(r: { status: number; body: any; headers: Headers; text: string }, status: number, code: string) {
  assert.equal(r.status, status, r.text);
  assert.match(r.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(typeof r.body.error, 'string');
  assert.equal(r.body.code, code);
  assert.ok(!/at .*\.(ts|js):\d+/.test(r.text), 'no stack trace');
  assert.ok(r.headers.get('x-request-id'), 'a request id on every answer');
}

describe('error answers', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });
  const post = (path: string, raw: string | undefined, contentType?: string) =>
    call(server.url, 'POST', path, { raw, headers: contentType ? { 'content-type': contentType } : {} });

  it('validation: wrong type, missing field, unknown field → 400 invalid_request naming the field', async () => {
    const wrongType = await call(server.url, 'POST', '/auth/login', { body: { email: 5, password: 'x' } });
    assertErrorShape(wrongType, 400, 'invalid_request');
    assert.match(wrongType.body.error, /email/);
    const missing = await call(server.url, 'POST', '/auth/login', { body: { email: 'a@b.in' } });
    assertErrorShape(missing, 400, 'invalid_request');
    assert.match(missing.body.error, /password/);
    const unknown = await call(server.url, 'POST', '/auth/login', { body: { email: 'a@b.in', password: 'x', admin: true } });
    assertErrorShape(unknown, 400, 'invalid_request');
    assert.match(unknown.body.error, /admin/);
  });

  it('malformed JSON and an empty JSON body → 400 invalid_json', async () => {
    assertErrorShape(await post('/auth/login', '{"email": ', 'application/json'), 400, 'invalid_json');
    assertErrorShape(await post('/auth/login', '', 'application/json'), 400, 'invalid_json');
  });

  it('unknown route → 404; wrong method on a known path → 405 with Allow', async () => {
    assertErrorShape(await call(server.url, 'GET', '/api/v1/nothing-here'), 404, 'not_found');
    assertErrorShape(await call(server.url, 'GET', '/'), 404, 'not_found');
    const put = await call(server.url, 'PUT', '/api/v1/me');
    assertErrorShape(put, 405, 'method_not_allowed');
    assert.equal(put.headers.get('allow'), 'GET');
    const del = await call(server.url, 'DELETE', '/auth/login');
    assertErrorShape(del, 405, 'method_not_allowed');
    assert.equal(del.headers.get('allow'), 'POST');
  });

  it('a body over 1 MiB → 413 payload_too_large', async () => {
    const big = JSON.stringify({ email: 'a@b.in', password: 'x'.repeat(1_100_000) });
    assertErrorShape(await post('/auth/login', big, 'application/json'), 413, 'payload_too_large');
  });

  it('a content type other than JSON → 415 unsupported_media_type', async () => {
    assertErrorShape(await post('/auth/login', 'email=a@b.in', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    assertErrorShape(await post('/auth/login', 'hello', 'text/plain'), 415, 'unsupported_media_type');
  });

  it('keeps a sane caller-supplied x-request-id and replaces an unsafe one', async () => {
    const kept = await call(server.url, 'GET', '/healthz', { headers: { 'x-request-id': 'door-7-scan-42' } });
    assert.equal(kept.headers.get('x-request-id'), 'door-7-scan-42');
    const replaced = await call(server.url, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces;and=more' } });
    assert.notEqual(replaced.headers.get('x-request-id'), 'bad id with spaces;and=more');
    assert.ok(replaced.headers.get('x-request-id'));
  });
});

describe('unexpected faults', () => {
  it('answer a bare 500 and log the fault with the request id', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const config = loadConfig(testEnv(mkdtempSync(join(tmpdir(), 'svc-fault-')), { LOG_LEVEL: 'info' }));
    const deps = await createDeps(config, { logger });
    const app = await buildApp(deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const org = await organiser(url);
      // The database goes away under the service: an internal fault, not the caller's.
      await deps.db.destroy();
      deps.keyCache.forget(org.keyId);
      const r = await call(url, 'GET', '/api/v1/me', { key: org.key, headers: { 'x-request-id': 'fault-1' } });
      assert.equal(r.status, 500);
      assert.deepEqual(r.body, { error: 'internal error', code: 'internal' });
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'internal error');
      assert.ok(logged, 'the fault is logged');
      assert.equal(logged.reqId, 'fault-1');
      assert.ok(!lines.join('\n').includes(org.key), 'the API key never reaches the log');
    } finally {
      await app.close();
    }
  });
});
