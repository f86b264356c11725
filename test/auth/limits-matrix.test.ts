// The per-address limit over every route the service registers, read from Fastify itself
// (`app.routeTable`), as the authorisation matrix reads them: a route open to anyone (public
// with a limit, or a key route called without a key) refuses a client address past its budget
// with 429 `rate_limited` and `Retry-After`, counting an IPv6 client by its /64; another /64 is
// not affected; a public route that opts out of the limit (signed webhooks, static assets) never
// answers 429; and the OpenAPI document lists 429 exactly where the rule sets a limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../helpers/limits.js';
import { call } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Rule = { kind: 'public'; rateLimit?: boolean } | { kind: 'key' } | { kind: string };
interface Route {
  method: string;
  path: string;
  rule: Rule;
  hidden: boolean;
}

const PER_MINUTE = 2;
/** Through the one proxy hop the server trusts. */
const from = (address: string) => ({ 'x-forwarded-for': address });
/** The `n`th /64 of the documentation prefix, and an address `host` inside it. */
const in64 = (n: number, host: number) =>
  `2001:db8:${n.toString(16)}:${(n * 3).toString(16)}:${host.toString(16)}:${(host * 5).toString(16)}:0:1`;

describe('per-address limits over every registered route', () => {
  let server: TestServer;
  let routes: Route[] = [];
  let documented: Record<string, Record<string, any>> = {};

  before(async () => {
    server = await startServer({
      env: { ...DEFAULT_LIMITS, RATE_LIMIT_PER_MINUTE: String(PER_MINUTE), TRUST_PROXY: '1' },
    });
    for (const r of server.app.routeTable) {
      if (r.method === 'HEAD') continue;
      routes.push({ method: r.method, path: r.url, rule: r.rule as Rule, hidden: r.hidden });
    }
    documented = (await call(server.url, 'GET', '/api/v1/openapi.json', { headers: from(in64(0xffff, 1)) }))
      .body.paths;
    // The limit counts fixed minutes of the injected clock, which stands still from here on.
    server.clock.advance(60_000 - (server.clock.now().getTime() % 60_000));
  });
  after(async () => {
    await server.close();
  });

  const url = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, 'x_unknown').replace(/\*$/, 'x');
  /** One request, redirects not followed (a followed redirect would be a second request of the address). */
  const send = async (r: Route, address: string) => {
    const hasBody = r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH';
    const res = await fetch(server.url + url(r.path), {
      method: r.method,
      redirect: 'manual',
      headers: { ...from(address), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      ...(hasBody ? { body: '{}' } : {}),
    });
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  };
  const limited = (r: Route) =>
    (r.rule.kind === 'public' && (r.rule as { rateLimit?: boolean }).rateLimit !== false) ||
    r.rule.kind === 'key';
  const exempt = (r: Route) =>
    r.rule.kind === 'public' && (r.rule as { rateLimit?: boolean }).rateLimit === false;

  it('a public route or a key route without a key: 429 rate_limited with Retry-After past the budget of a /64, whichever address of it asks; another /64 is served', async () => {
    const checked = routes.filter(limited);
    assert.ok(checked.length > 60, `${checked.length} routes under the per-address limit`);
    for (const [i, r] of checked.entries()) {
      const where = `${r.method} ${r.path}`;
      for (let host = 1; host <= PER_MINUTE; host++) {
        const ok = await send(r, in64(i + 1, host));
        assert.notEqual(ok.status, 429, `${where}: refused within its budget`);
        assert.ok(ok.status < 500, `${where}: ${ok.status}`);
      }
      const over = await send(r, in64(i + 1, PER_MINUTE + 1));
      assert.equal(
        over.status,
        429,
        `${where}: the /64 is past its budget (${over.status} ${over.text.slice(0, 120)})`,
      );
      assert.ok(Number(over.headers.get('retry-after')) > 0, `${where}: Retry-After`);
      assert.equal(over.headers.get('ratelimit-remaining'), '0', where);
      if (over.body && typeof over.body === 'object')
        assert.deepEqual([typeof over.body.error, over.body.code], ['string', 'rate_limited'], where);
      const other = await send(r, in64(i + 1 + 0x8000, 1));
      assert.notEqual(other.status, 429, `${where}: another /64 is not affected`);
    }
  });

  it('a public route that opts out (signed webhooks, static assets) is not held to the per-address budget', async () => {
    const open = routes.filter(exempt);
    assert.ok(open.length >= 3, `${open.length} routes opt out`);
    for (const [i, r] of open.entries()) {
      for (let n = 0; n < PER_MINUTE * 3; n++) {
        const res = await send(r, in64(0x4000 + i, 1));
        assert.notEqual(res.status, 429, `${r.method} ${r.path}`);
        assert.ok(res.status < 500, `${r.method} ${r.path}: ${res.status}`);
      }
    }
  });

  it('the document lists 429 on every documented operation under the per-address limit', () => {
    // (A webhook that opts out has limits of its own, on bad signatures: its 429 is documented there.)
    for (const r of routes.filter((x) => !x.hidden && limited(x))) {
      const op = documented[r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      assert.ok(op, `${r.method} ${r.path} documented`);
      assert.ok(Object.keys(op.responses ?? {}).includes('429'), `${r.method} ${r.path}: 429 missing`);
    }
  });
});
