// The served OpenAPI document: OpenAPI 3.1, one operation for every route the service
// serves (the hidden CORS preflight aside), each stating the security the route really
// enforces and its error answers in the shared Error schema; and clean under Redocly's lint.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { call } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ERROR_REF = '#/components/schemas/Error';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Every method and path the router serves, read from Fastify's own route tree
 * (printRoutes with commonPrefix: false prints each node's text after its parent's).
 * HEAD (added for every GET) and OPTIONS (the CORS preflight, hidden) are left out.
 */
function servedRoutes(tree: string): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    if (line.trim() === '') continue;
    const m = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) throw new Error(`cannot read route tree line: ${JSON.stringify(line)}`);
    const depth = m[1]!.length / 4;
    const path = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '')) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      // The dashboard's HTML pages and assets are a web app, not API: hidden from the document.
      if (path.startsWith('/dashboard') && !path.startsWith('/dashboard/api/')) continue;
      // Fastify's :name is OpenAPI's {name}.
      out.add(`${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  let server: TestServer;
  let doc: any;
  const operations: { method: string; path: string; op: any }[] = [];
  before(async () => {
    server = await startServer();
    const r = await call(server.url, 'GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json\b/);
    doc = r.body;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) operations.push({ method, path, op });
    }
  });
  after(async () => {
    await server.close();
  });

  it('is served from bytes made once, with an ETag: If-None-Match answers 304 without a body', async () => {
    const first = await fetch(`${server.url}/api/v1/openapi.json`);
    const bytes = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{27}"$/);
    // Made once: the next answers are the same bytes, and nothing builds the document again.
    const swagger = server.app.swagger;
    (server.app as { swagger: unknown }).swagger = () => {
      throw new Error('the document was built again');
    };
    try {
      const again = await fetch(`${server.url}/api/v1/openapi.json`);
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('etag'), etag);
      assert.ok(Buffer.from(await again.arrayBuffer()).equals(bytes));
      for (const tag of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
        const r = await fetch(`${server.url}/api/v1/openapi.json`, { headers: { 'if-none-match': tag } });
        assert.equal(r.status, 304, tag);
        assert.equal(await r.text(), '');
        assert.equal(r.headers.get('etag'), etag);
      }
      const stale = await fetch(`${server.url}/api/v1/openapi.json`, {
        headers: { 'if-none-match': '"an-older-version"' },
      });
      assert.equal(stale.status, 200);
      assert.ok(Buffer.from(await stale.arrayBuffer()).equals(bytes));
    } finally {
      (server.app as { swagger: unknown }).swagger = swagger;
    }
  });

  it('is OpenAPI 3.1.0 with the shared Error schema and both security schemes', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(typeof doc.info?.title, 'string');
    assert.equal(typeof doc.info?.version, 'string');
    const error = doc.components?.schemas?.Error;
    assert.ok(error, 'components.schemas.Error');
    assert.deepEqual([...error.required].sort(), ['code', 'error']);
    assert.equal(error.properties.error.type, 'string');
    assert.equal(error.properties.code.type, 'string');
    assert.deepEqual(doc.components.securitySchemes.apiKey, {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: doc.components.securitySchemes.apiKey.description,
    });
    assert.equal(doc.components.securitySchemes.session.type, 'http');
    assert.equal(doc.components.securitySchemes.session.scheme, 'bearer');
  });

  it('has one operation for every route the service serves, and none it does not serve', () => {
    const served = servedRoutes(server.app.printRoutes({ commonPrefix: false }));
    // The tree reader must have read something real.
    for (const known of [
      'GET /api/v1/me',
      'POST /auth/login',
      'GET /api/v1/events/{id}',
      'DELETE /dashboard/api/keys/{keyId}',
    ]) {
      assert.ok(served.has(known), `route tree lists ${known}`);
    }
    const documented = new Set(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
    assert.deepEqual([...served].filter((r) => !documented.has(r)).sort(), [], 'served but not documented');
    assert.deepEqual([...documented].filter((r) => !served.has(r)).sort(), [], 'documented but not served');
    for (const o of operations) {
      assert.ok(
        (METHODS as readonly string[]).includes(o.method),
        `${o.method} ${o.path}: no OPTIONS/HEAD operations`,
      );
    }
  });

  it('gives each operation a unique operationId, a success answer, and error answers in the shared Error schema', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId, `${where} has an operationId`);
      assert.ok(!ids.has(op.operationId), `${where}: operationId ${op.operationId} is unique`);
      ids.add(op.operationId);
      const statuses = Object.keys(op.responses ?? {});
      // A redirect is the success of a route that only sends the browser on (GET /t/{token}/google-wallet, GET /auth/verify).
      assert.ok(
        statuses.some((s) => /^(2\d\d|30[23])$/.test(s)),
        `${where} documents success`,
      );
      assert.ok(statuses.includes('500'), `${where} documents 500`);
      // The hosted checkout's HTML pages answer their errors as readable pages.
      const htmlPage = Object.keys(op.responses['200']?.content ?? {}).includes('text/html');
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const content = op.responses[status].content;
        // A page for people (the hosted checkout, the verification link) answers its refusals
        // as a page; a page that also takes JSON answers them as JSON too.
        const types = Object.keys(content ?? {});
        if (htmlPage && types.length === 1 && types[0] === 'text/html') continue;
        const isPage = htmlPage || Object.values<any>(op.responses).some((r) => r.content?.['text/html']);
        assert.deepEqual(
          types.filter((t) => !(isPage && t === 'text/html')),
          ['application/json'],
          `${where} ${status} is JSON`,
        );
        // The shared Error schema, or a named refusal shape built on it (CheckInRefusal: allOf Error + its fields).
        const ref = content['application/json'].schema?.$ref as string | undefined;
        const named = ref?.startsWith('#/components/schemas/')
          ? doc.components.schemas[ref.slice('#/components/schemas/'.length)]
          : undefined;
        assert.ok(
          ref === ERROR_REF || named?.allOf?.some((s: { $ref?: string }) => s.$ref === ERROR_REF),
          `${where} ${status} uses the shared Error schema`,
        );
        assert.ok(op.responses[status].description, `${where} ${status} has a description`);
      }
      if (op.requestBody) {
        for (const s of ['400', '413', '415'])
          assert.ok(statuses.includes(s), `${where} takes a body, so documents ${s}`);
      }
    }
    assert.ok(doc.paths['/readyz'].get.responses['503'], '/readyz documents its 503');
    // The browser side: the hosted page (HTML), embed.js, and the JSON calls the page makes.
    assert.deepEqual(Object.keys(doc.paths['/e/{slug}'].get.responses['200'].content), ['text/html']);
    assert.deepEqual(Object.keys(doc.paths['/embed.js'].get.responses['200'].content), ['text/javascript']);
    for (const [path, method] of [
      ['/e/{slug}/register', 'post'],
      ['/e/{slug}/payment', 'post'],
      ['/e/{slug}/orders/{orderId}', 'get'],
    ] as const) {
      assert.deepEqual(doc.paths[path][method].security, [], `${path} is public (live events need no key)`);
      assert.match(doc.paths[path][method].description, /test event needs `key`/);
    }
  });

  it('states on each operation the security the route enforces, and 429 exactly where it is rate limited', async () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(Array.isArray(op.security), `${where} states its security`);
      for (const req of op.security)
        for (const name of Object.keys(req))
          assert.ok(schemes.includes(name), `${where}: ${name} is defined`);
      const names = op.security.flatMap((s: object) => Object.keys(s));
      const statuses = Object.keys(op.responses);

      // Call it without credentials: what the service answers must match what the document says.
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const r = await call(
        server.url,
        method.toUpperCase(),
        url,
        method === 'get' || method === 'delete' ? {} : { body: {} },
      );
      if (names.includes('doorPass')) {
        // A door pass, perhaps or a full key: the door's routes; the screen's own token is its path.
        assert.ok(
          names.every((n: string) => n === 'doorPass' || n === 'apiKey'),
          where,
        );
        assert.equal(r.status, 401, `${where} refuses a call without a pass: ${r.text.slice(0, 200)}`);
        if (!path.includes('{token}')) assert.equal(r.body.code, 'missing_door_pass', where);
        for (const s of ['401', '403']) assert.ok(statuses.includes(s), `${where} documents ${s}`);
      } else if (names.includes('apiKey')) {
        assert.deepEqual(names, ['apiKey'], where);
        assert.equal(r.status, 401, `${where} refuses a call without a key: ${r.text}`);
        assert.equal(r.body.code, 'missing_api_key', where);
        for (const s of ['401', '403']) assert.ok(statuses.includes(s), `${where} documents ${s}`);
      } else if (names.includes('session')) {
        assert.deepEqual(names, ['session'], where);
        assert.equal(r.status, 401, `${where} refuses a call without a session: ${r.text}`);
        // A route may name its own refusal (POST /auth/verify: `session_required`).
        assert.equal(r.body.code, op['x-auth']?.refusal ?? 'missing_session', where);
        assert.ok(statuses.includes('401'), `${where} documents 401`);
      } else {
        assert.deepEqual(op.security, [], `${where} is public`);
        assert.ok(
          !['missing_api_key', 'missing_session'].includes(r.body?.code),
          `${where} is documented public but asks for credentials: ${r.text}`,
        );
      }
      const counted = r.headers.get('ratelimit-limit') !== null;
      assert.equal(
        statuses.includes('429'),
        counted,
        `${where}: 429 documented ${statuses.includes('429')}, rate limited ${counted}`,
      );
    }
  });

  it('passes Redocly’s lint with no errors (warnings are printed)', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const r = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--format=json'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
        timeout: 120_000,
      });
      assert.equal(r.error, undefined, `redocly did not run: ${r.error?.message}`);
      let report: {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      };
      try {
        report = JSON.parse(r.stdout);
      } catch {
        assert.fail(`redocly gave no JSON report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
      }
      const explain = (p: (typeof report.problems)[number]) =>
        `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`;
      for (const w of report.problems.filter((p) => p.severity !== 'error')) t.diagnostic(explain(w));
      const errors = report.problems.filter((p) => p.severity === 'error');
      assert.deepEqual(errors.map(explain), [], 'Redocly errors');
      assert.equal(report.totals.errors, 0);
      assert.equal(r.status, 0, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
