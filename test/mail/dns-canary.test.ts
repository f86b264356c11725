// A resolver that filters outside names answers "no such domain" for everything (docs/decisions/28-a-persons-day.md,
// addresses). The service asks it for EMAIL_DNS_CANARY at start and every 5 minutes by the
// injected clock; while it is denied, addresses are checked for syntax and reserved domains
// only, and /readyz, the log and a metric say so. SERVFAIL proves nothing and changes nothing.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import {
  canaryAnswer,
  reducedAfter,
  type CanaryAnswer,
  type LookupOutcome,
} from '../../src/modules/mail/dns-canary.js';
import type { DnsResolver } from '../../src/modules/mail/email-check.js';
import { call, createKey, organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MINUTE = 60_000;

describe('the canary decision (pure)', () => {
  const records = (n: number): LookupOutcome => ({ records: n });
  const error = (code: string): LookupOutcome => ({ error: code });
  const cases: Array<[LookupOutcome, LookupOutcome, CanaryAnswer]> = [
    [records(5), records(1), 'answered'],
    [records(1), error('ENOTFOUND'), 'answered'],
    [error('ESERVFAIL'), records(1), 'answered'],
    [error('ENOTFOUND'), error('ENOTFOUND'), 'denied'],
    [error('ENODATA'), error('ENODATA'), 'denied'],
    [records(0), error('ENOTFOUND'), 'denied'],
    [error('ENOTFOUND'), error('ESERVFAIL'), 'unknown'],
    [error('ESERVFAIL'), error('ESERVFAIL'), 'unknown'],
    [error('ETIMEOUT'), error('ETIMEOUT'), 'unknown'],
    [error('EREFUSED'), error('ENOTFOUND'), 'unknown'],
    [error('ECONNREFUSED'), error('ECONNREFUSED'), 'unknown'],
  ];
  it('reads MX and A together: a record answers, two definite "none" deny, anything else tells nothing', () => {
    for (const [mx, a, want] of cases) assert.equal(canaryAnswer(mx, a), want, JSON.stringify([mx, a]));
  });
  it('switches the reduced mode on a denial, off on an answer, and leaves it on anything else', () => {
    assert.equal(reducedAfter(false, 'denied'), true);
    assert.equal(reducedAfter(true, 'denied'), true);
    assert.equal(reducedAfter(true, 'answered'), false);
    assert.equal(reducedAfter(false, 'answered'), false);
    assert.equal(reducedAfter(false, 'unknown'), false);
    assert.equal(reducedAfter(true, 'unknown'), true);
  });
});

/** A resolver the test steers: the truth (a few zones), everything denied, or SERVFAIL for everything. */
class FakeResolver implements DnsResolver {
  behaviour: 'truth' | 'deny' | 'servfail' = 'truth';
  readonly asked: string[] = [];
  readonly #zones: Record<string, { mx?: string[]; a?: string[] }> = {
    'gmail.com': { mx: ['gmail-smtp-in.l.google.com'], a: ['192.0.2.25'] },
    'good.in': { mx: ['mx.good.in'] },
  };
  #answer<T>(name: string, pick: (z: { mx?: string[]; a?: string[] }) => T[] | undefined): Promise<T[]> {
    this.asked.push(name);
    const fail = (code: string) =>
      Promise.reject(Object.assign(new Error(`query ${code} ${name}`), { code }));
    if (this.behaviour === 'servfail') return fail('ESERVFAIL');
    const zone = this.behaviour === 'deny' ? undefined : this.#zones[name];
    if (!zone) return fail('ENOTFOUND');
    const found = pick(zone);
    return found && found.length > 0 ? Promise.resolve(found) : fail('ENODATA');
  }
  resolveMx(name: string) {
    return this.#answer(name, (z) => z.mx?.map((exchange) => ({ exchange, priority: 10 })));
  }
  resolve4(name: string) {
    return this.#answer(name, (z) => z.a);
  }
  resolve6(name: string) {
    return this.#answer<string>(name, () => undefined);
  }
}

describe('the email check while the resolver filters outside names', () => {
  const env = { EMAIL_DNS_CHECK: 'true' };
  let org: Account & KeyInfo;
  let pk: string;
  let eventId: string;
  let slug: string;

  async function setUp(server: TestServer) {
    org = await organiser(server.url);
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    const api = keyApi(server.url, org.key);
    eventId = await createEvent(api, { title: 'Canary', startDate: '2026-12-01' });
    slug = (await api('GET', `/api/v1/events/${eventId}`)).body.data.slug;
  }
  const register = (server: TestServer, email: string) =>
    call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'N', email },
    });
  const fromPage = (server: TestServer, email: string) =>
    call(server.url, 'POST', `/e/${slug}/register`, {
      body: { key: pk, name: 'N', email },
      headers: { origin: server.url },
    });
  const readiness = async (server: TestServer) => {
    const r = await call(server.url, 'GET', '/readyz');
    assert.equal(r.status, 200, 'a reduced check leaves the service usable');
    return r.body as { status: string; emailCheck: string; detail?: string };
  };
  const gauge = async (server: TestServer) => {
    const r = await call(server.url, 'GET', '/metrics');
    const m = /^email_dns_check_reduced (\d+)$/m.exec(r.text);
    assert.ok(m, 'the metric is exported');
    return Number(m[1]);
  };
  /** The next canary turn: 5 minutes later by the injected clock. */
  const nextTurn = async (server: TestServer) => {
    server.clock.advance(5 * MINUTE);
    await server.deps.emailCanary.checkIfDue();
  };

  describe('a resolver that denies everything from the start', () => {
    let server: TestServer;
    const resolver = new FakeResolver();
    const lines: Array<{ level: number; msg: string; canary?: string }> = [];
    before(async () => {
      resolver.behaviour = 'deny';
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk, _enc, cb) {
            lines.push(JSON.parse(String(chunk)));
            cb();
          },
        }),
      );
      server = await startServer({ env, resolver, logger });
      await setUp(server);
    });
    after(async () => {
      await server.close();
    });

    it('warns at start-up, naming the canary', () => {
      const warnings = lines.filter((l) => l.level === 40 && l.canary === 'gmail.com');
      assert.equal(warnings.length, 1, JSON.stringify(lines));
      assert.match(warnings[0]!.msg, /checked for syntax and reserved domains only/);
    });

    it('accepts a well-formed address at gmail.com, through the API and the hosted page', async () => {
      assert.equal((await register(server, 'asha@gmail.com')).status, 201);
      const page = await fromPage(server, 'ravi@gmail.com');
      assert.ok(page.status === 200 || page.status === 201, page.text);
    });

    it('still refuses bad syntax and reserved domains', async () => {
      const bad = await register(server, 'asha@site.test');
      assert.deepEqual([bad.status, bad.body.code], [400, 'undeliverable_email']);
    });

    it('says so in /readyz (200, reduced, with a detail naming the canary) and in the metric', async () => {
      const r = await readiness(server);
      assert.equal(r.status, 'ready');
      assert.equal(r.emailCheck, 'reduced');
      assert.match(r.detail ?? '', /gmail\.com does not exist/);
      assert.match(r.detail ?? '', /syntax and reserved domains only/);
      assert.equal(await gauge(server), 1);
    });
  });

  describe('a resolver that answers', () => {
    let server: TestServer;
    const resolver = new FakeResolver();
    before(async () => {
      server = await startServer({ env, resolver });
      await setUp(server);
    });
    after(async () => {
      await server.close();
    });

    it('keeps the full check: a domain that does not exist is refused with a sentence, on the API and the hosted page', async () => {
      assert.deepEqual(await readiness(server), {
        status: 'ready',
        storage: server.deps.storage,
        emailCheck: 'dns',
      });
      assert.equal(await gauge(server), 0);
      for (const r of [await register(server, 'asha@nosuch.in'), await fromPage(server, 'asha@nosuch.in')]) {
        assert.deepEqual([r.status, r.body.code, r.body.field], [400, 'undeliverable_email', 'email']);
        assert.equal(
          r.body.error,
          'The domain nosuch.in does not exist, so this address cannot receive mail. Please check the part after the @ for a typing mistake.',
        );
      }
      assert.equal((await register(server, 'asha@good.in')).status, 201);
    });

    it('asks the canary again only when 5 minutes have passed by the injected clock', async () => {
      const asked = () => resolver.asked.filter((n) => n === 'gmail.com').length;
      const before = asked();
      server.clock.advance(5 * MINUTE - 1);
      await server.deps.emailCanary.checkIfDue();
      assert.equal(asked(), before, 'not yet due');
      server.clock.advance(1);
      await server.deps.emailCanary.checkIfDue();
      assert.ok(asked() > before, 'due: asked');
    });

    it('SERVFAIL on the canary changes nothing, in either mode', async () => {
      resolver.behaviour = 'servfail';
      await nextTurn(server);
      assert.equal((await readiness(server)).emailCheck, 'dns', 'SERVFAIL does not reduce the check');
      assert.equal(await gauge(server), 0);

      resolver.behaviour = 'deny';
      await nextTurn(server);
      assert.equal((await readiness(server)).emailCheck, 'reduced', 'a denial reduces it');
      assert.equal((await register(server, 'asha@gmail.com')).status, 201);
      assert.equal(
        (await register(server, 'ravi@nosuch.in')).status,
        201,
        'no DNS refusal while reduced, not even one cached before',
      );

      resolver.behaviour = 'servfail';
      await nextTurn(server);
      assert.equal(
        (await readiness(server)).emailCheck,
        'reduced',
        'SERVFAIL does not end the reduced mode either',
      );
      assert.equal(await gauge(server), 1);

      resolver.behaviour = 'truth';
      await nextTurn(server);
      assert.equal(
        (await readiness(server)).emailCheck,
        'dns',
        'the canary answered: the full check is back',
      );
      assert.equal(await gauge(server), 0);
      assert.equal((await register(server, 'mira@nosuch.in')).status, 400);
    });
  });

  it('checks nothing and says "off" with EMAIL_DNS_CHECK=false', async () => {
    const resolver = new FakeResolver();
    resolver.behaviour = 'deny';
    const server = await startServer({ resolver });
    try {
      assert.equal((await readiness(server)).emailCheck, 'off');
      assert.deepEqual(resolver.asked, [], 'no canary lookup');
    } finally {
      await server.close();
    }
  });
});
