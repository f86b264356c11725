// The served OpenAPI document: complete for every route, and clean under Redocly's lint.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

describe('OpenAPI document', () => {
  let server: TestServer;
  let doc: any;
  before(async () => {
    server = await startServer();
    doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
  });
  after(async () => {
    await server.close();
  });

  it('is OpenAPI 3.1 and lists every route the service serves, with security and errors', () => {
    assert.equal(doc.openapi, '3.1.0');
    const paths = Object.keys(doc.paths);
    for (const expected of [
      '/api/v1/me',
      '/api/v1/events',
      '/api/v1/events/{id}',
      '/api/v1/events/{id}/tracks',
      '/api/v1/events/{id}/tracks/{index}',
      '/api/v1/events/{id}/register',
      '/api/v1/events/{id}/registrations',
      '/api/v1/events/{id}/registrations/{registrationId}',
      '/api/v1/events/{id}/availability',
      '/api/v1/events/{id}/analytics',
      '/api/v1/events/{id}/check-in',
      '/api/v1/events/{id}/broadcast',
      '/api/v1/events/{id}/promo-codes',
      '/api/v1/memberships/plans',
      '/api/v1/memberships/subscribe',
      '/api/v1/memberships/{id}/cancel',
      '/api/v1/memberships/{id}/confirm',
      '/api/v1/memberships/members',
      '/api/v1/webhooks',
      '/api/v1/webhooks/deliveries',
      '/api/v1/sandbox/payments',
      '/api/v1/sandbox/emails',
      '/api/v1/sandbox/clock',
      '/auth/signup',
      '/auth/login',
      '/dashboard/api/keys',
      '/dashboard/api/keys/{keyId}',
      '/admin/api/accounts/{userId}/organiser-access',
      '/admin/api/memberships',
      '/webhooks/razorpay',
      '/healthz',
      '/readyz',
    ]) {
      assert.ok(paths.includes(expected), `${expected} is documented`);
    }
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        assert.ok(op.operationId, `${method} ${path} has an operationId`);
        assert.ok(Array.isArray(op.security), `${method} ${path} states its security`);
        const statuses = Object.keys(op.responses);
        assert.ok(statuses.some((s) => s.startsWith('2')), `${method} ${path} documents success`);
        assert.ok(statuses.includes('500') && statuses.includes('429'), `${method} ${path} documents its errors`);
        if (op.security.some((s: any) => 'apiKey' in s)) assert.ok(statuses.includes('401') && statuses.includes('403'), `${method} ${path}`);
      }
    }
    assert.ok(doc.components.schemas.Error, 'the shared Error schema');
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'session']);
  });

  it('passes Redocly’s lint with no errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const r = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--format=stylish'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 120_000,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    if (/warning/i.test(out)) console.log(out.split('\n').filter((l) => /warning/i.test(l)).join('\n'));
    assert.equal(r.status, 0, out);
    assert.match(out, /valid/i);
  });
});
