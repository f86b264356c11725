// The fuzz: every route the service registers (read from Fastify, `app.routeTable`), with
// requests made from the route's schemas where the OpenAPI document has them and from the
// dashboard's own forms where it does not, bent out of shape (wrong types, huge strings,
// unicode, prototype keys, missing and extra fields, bad ids, JSON nested up to 1,000,000
// levels), sent as every caller the route knows: keys of every class and mode, an
// organiser's and a staff member's session token, their dashboard cookies with the form
// token, the gateway with garbage and with correctly signed notifications. Real objects
// are pointed at: published live events by slug (paid, with orders at the gateway
// emulator), test events, registrations, orders, keys.
//
// Checked on every answer: no 5xx, every JSON error is { error, code }, a refused request
// (4xx) wrote nothing in any table, no request over 1 s (the long run only: a verdict inside
// `npm test` never rests on wall-clock time), and the event loop never held
// for more than 50 ms (the server runs in this process).
import fc from 'fast-check';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { checkoutSignature } from '../../src/modules/checkout/signature.js';
import { DashboardClient } from '../helpers/dashboard.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import {
  orderPaidEvent,
  paymentCapturedEvent,
  payoutEvent,
  signWebhook,
  subscriptionEvent,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import type { TestServer } from '../helpers/server.js';
import { changedTables, snapshotter, type Snapshot } from './snapshot.js';

export const MAX_REQUEST_MS = 1000;
export const MAX_LOOP_DELAY_MS = 50;

export interface Failure {
  operation: string;
  request: string;
  answer: string;
  problem: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** Requests by group: api, checkout (/e/…), dashboard, staff, webhook, deep (nested JSON), other. */
  groups: Record<string, number>;
  /** Routes that got at least one request, of all registered. */
  routesReached: number;
  routesRegistered: number;
  tablesWatched: number;
  refusalsChecked: number;
  maxLoopDelayMs: number;
  maxLoopDelayAt: string;
  slowestMs: number;
  slowest: string;
  statuses: Record<string, number>;
  failures: Failure[];
}

export interface World {
  rzp: RazorpayEmulator;
  keySecret: string;
  webhookSecret: string;
  staffEmail: string;
}

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** How many JSON-body routes get the deep-nesting ladder (all when undefined). */
  deepRoutes?: number;
  /**
   * Whether a request over MAX_REQUEST_MS is a failure. Only the long run (`npm run fuzz`) sets
   * it: inside `npm test` the machine is shared with the rest of the suite, and a test's verdict
   * never rests on wall-clock time; the slowest request is reported either way.
   */
  timeBound?: boolean;
  log?: (line: string) => void;
}

type Schema = any;

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];
const HUGE = 'x'.repeat(200_000);
const UNICODE = [
  '\u0000',
  '\uffff',
  '\ud800',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\u202e\u0644\u0627',
  'Ω≈ç√∫',
  '🎟️👩‍👩‍👧',
  'ﷺ',
  '\u0301\u0301\u0301',
  'a\r\nX-Injected: 1',
];

function nested(depth: number): unknown {
  return JSON.parse('['.repeat(depth) + ']'.repeat(depth));
}

function protoObject(key: string, value: unknown): Record<string, unknown> {
  // JSON.parse makes "__proto__" an own key, as a hostile JSON body would.
  return JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
}

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -1e308,
    2 ** 53 + 1,
    0.000001,
    '',
    ' ',
    '0',
    'null',
    'true',
    '[]',
    '{}',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...UNICODE),
  fc.constantFrom(
    HUGE,
    'a'.repeat(255),
    'a'.repeat(1025),
    `${'a'.repeat(64)}@${'b'.repeat(190)}.in`,
    `"${'\\"'.repeat(500)}"@x.in`,
    `${'a.'.repeat(120)}@x.in`,
    '"victim@evil.in"@good.in',
  ),
  fc.constantFrom(...PROTO_KEYS),
  fc.constantFrom(
    nested(64),
    nested(65),
    [],
    {},
    [[[]]],
    Array.from({ length: 5000 }, (_, i) => i),
  ),
  fc.constantFrom(...PROTO_KEYS).map((k) => protoObject(k, { polluted: true })),
  fc.constantFrom(
    'reg_',
    'ev_',
    'ev_' + 'A'.repeat(16),
    '../../etc/passwd',
    '%00',
    '1 OR 1=1',
    "'; drop table users; --",
    '$where',
    '2026-02-30',
    '9999-12-31T23:59:59Z',
    '-1',
    'NaN',
    'Infinity',
  ),
);

/**
 * Raw bodies nested past any sane depth, up to 1,000,000 levels: made once, as text (no
 * JSON.stringify could make them). Over the 1 MiB body limit they must be a 413, under it
 * a 400; either way quickly and without holding the event loop.
 */
const DEEP_BODIES: { name: string; body: string }[] = [
  { name: 'array×65', body: '['.repeat(65) + ']'.repeat(65) },
  { name: 'array×2,000', body: '['.repeat(2000) + ']'.repeat(2000) },
  { name: 'array×100,000', body: '['.repeat(100_000) + ']'.repeat(100_000) },
  { name: 'array×500,000', body: '['.repeat(500_000) + ']'.repeat(500_000) },
  { name: 'array×1,000,000', body: '['.repeat(1_000_000) + ']'.repeat(1_000_000) },
  { name: 'unclosed array×1,000,000', body: '['.repeat(1_000_000) },
  { name: 'object×100,000', body: '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) },
  { name: 'field array×200,000', body: '{"name":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}' },
];

/** A value that fits the schema (roughly: formats and patterns are not honoured). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf || schema.oneOf)
    return fc.oneof(...(schema.anyOf ?? schema.oneOf).map((s: Schema) => valid(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date' || /date/i.test(schema.description ?? ''))
        return fc.constantFrom('2027-01-15', '2027-02-01', '2027-01-15T10:00:00+05:30');
      if (schema.format === 'email') return fc.constant(uniqueEmail('fz'));
      if (schema.format === 'date-time')
        return fc.constantFrom('2027-01-15T10:00:00Z', '2027-06-01T00:00:00+05:30');
      if (schema.format === 'uri')
        return fc.constantFrom('https://hooks.example.in/x', 'https://shop.example.in');
      return fc.string({
        minLength: Math.max(1, schema.minLength ?? 0),
        maxLength: Math.min(schema.maxLength ?? 20, 20),
      });
    case 'integer':
    case 'number':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      const props: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const parts: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) parts[k] = valid(s, depth + 1);
      return fc.record(parts, { requiredKeys: [...required].filter((k) => k in props) });
    }
    default:
      return fc.constant('x');
  }
}

/** A valid value, or one bent: a field changed to a hostile value, one missing, one extra, or the whole thing hostile. */
function bent(schema: Schema): fc.Arbitrary<unknown> {
  const base = valid(schema);
  const props = Object.keys(schema?.properties ?? {});
  return fc.oneof(
    { weight: 2, arbitrary: base },
    {
      weight: 4,
      arbitrary:
        props.length === 0
          ? hostile
          : fc
              .tuple(base, fc.constantFrom(...props), hostile)
              .map(([v, k, h]) => ({ ...(v as object), [k]: h })),
    },
    {
      weight: 1,
      arbitrary:
        props.length === 0
          ? base
          : fc
              .tuple(base, fc.constantFrom(...props))
              .map(([v, k]) => Object.fromEntries(Object.entries(v as object).filter(([x]) => x !== k))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(base, fc.constantFrom(...PROTO_KEYS, 'extra', 'isAdmin'), hostile)
        .map(([v, k, h]) =>
          typeof v === 'object' && v !== null && !Array.isArray(v)
            ? { ...(v as object), ...protoObject(k, h) }
            : v,
        ),
    },
    { weight: 2, arbitrary: hostile },
  );
}

/** A generated value as text (objects with an own `toString` key defeat String()). */
const text = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));

/** encodeURIComponent for any string: lone surrogates (which it refuses) become U+FFFD. */
const enc = (v: string) =>
  encodeURIComponent(
    v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

type Rule =
  | { kind: 'public'; rateLimit?: boolean }
  | { kind: 'key'; classes: string[]; modes?: string[] }
  | { kind: 'session' }
  | { kind: 'staff' }
  | { kind: 'cookie'; staff?: boolean };

interface Route {
  method: string;
  /** Fastify's form, `/e/:slug/register`. */
  url: string;
  rule: Rule;
  params: string[];
  query: { name: string; schema: Schema }[];
  body: Schema | undefined;
  group: 'api' | 'checkout' | 'dashboard' | 'staff' | 'webhook' | 'other';
}

/** One request, made before it is sent (generation is the test's work, not the service's). */
interface Planned {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What to show in a failure instead of the (possibly megabytes of) body. */
  describe: string;
}

interface Reply {
  status: number;
  text: string;
  json: any;
  contentType: string;
  setCookie: string[];
}

async function send(baseUrl: string, p: Planned): Promise<Reply> {
  const res = await fetch(baseUrl + p.url, {
    method: p.method,
    headers: p.headers,
    redirect: 'manual',
    ...(p.body === undefined ? {} : { body: p.body }),
  });
  const body = await res.text();
  // Only a refusal's body is read as JSON ({ error, code }). Parsing every answer would put
  // this process's own work on the loop it measures: the 2 MB OpenAPI document alone takes
  // tens of milliseconds to parse on a busy machine, in the test, not in the service.
  let json: any;
  try {
    json = body === '' || res.status < 400 ? undefined : JSON.parse(body);
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    text: body,
    json,
    contentType: res.headers.get('content-type') ?? '',
    setCookie: res.headers.getSetCookie(),
  };
}

/** The dashboard's form field names, read from its own pages. */
function fieldNames(html: string): string[] {
  return [...html.matchAll(/<(?:input|select|textarea)[^>]*\sname="([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((n) => n !== '_csrf');
}

export async function runFuzz(server: TestServer, world: World, options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  const base = server.url;

  // ------------------------------------------------------------------ the world
  const staff = await signup(base, { email: world.staffEmail });
  const owner: Account & KeyInfo = await organiser(base, 'test');
  const keys: Record<string, string> = { 'full:test': owner.key };
  for (const [cls, mode] of [
    ['full', 'live'],
    ['checkout', 'test'],
    ['checkout', 'live'],
  ] as const) {
    keys[`${cls}:${mode}`] = (await createKey(base, owner.token, { mode, class: cls })).key;
  }
  const sacrificialKeys = await Promise.all(
    [1, 2, 3].map(async () => (await createKey(base, owner.token, { mode: 'test', class: 'full' })).keyId),
  );
  const granted = await call(base, 'POST', `/admin/api/accounts/${owner.userId}/organiser-access`, {
    token: staff.token,
    body: { canPublish: true },
  });
  if (granted.status !== 200) throw new Error(`organiser access: ${granted.status} ${granted.text}`);

  const makeEvent = async (key: string, fields: Record<string, unknown>, publish: boolean) => {
    const r = await call(base, 'POST', '/api/v1/events', {
      key,
      body: { title: 'Fuzz night', description: 'x', startDate: '2027-01-15', capacity: 500, ...fields },
    });
    if (r.status !== 201) throw new Error(`event: ${r.status} ${r.text}`);
    if (publish) {
      const p = await call(base, 'PATCH', `/api/v1/events/${r.body.data.id}`, {
        key,
        body: { status: 'published' },
      });
      if (p.status !== 200) throw new Error(`publish: ${p.status} ${p.text}`);
    }
    return { id: r.body.data.id as string, slug: r.body.data.slug as string };
  };
  const customFields = [
    { name: 'constructor', label: 'C', type: 'text' },
    { name: 'mail', label: 'Mail', type: 'email' },
  ];
  const testFree = await makeEvent(keys['full:test']!, { price: 0, customFields }, false);
  const testPaid = await makeEvent(keys['full:test']!, { price: 500 }, true);
  const livePaid = await makeEvent(keys['full:live']!, { price: 500 }, true);
  const liveFree = await makeEvent(keys['full:live']!, { price: 0 }, true);
  const victims = await Promise.all([1, 2, 3].map(() => makeEvent(keys['full:test']!, { price: 0 }, false)));
  await call(base, 'POST', `/api/v1/events/${testPaid.id}/promo-codes`, {
    key: keys['full:test']!,
    body: { code: 'FUZZ10', discountPercent: 10, maxUses: 5 },
  });

  const reg = await call(base, 'POST', `/api/v1/events/${testFree.id}/register`, {
    key: owner.key,
    body: {
      name: 'Fuzz',
      email: uniqueEmail('fz'),
      customFields: { constructor: 'x', mail: uniqueEmail('m') },
    },
  });
  const registrationId: string = reg.body?.registrationId ?? 'reg_missing';

  // Paid bookings on the live event, each with an order at the gateway emulator; some paid
  // there, so that correctly signed notifications and handler fields exist for them.
  const orders: string[] = [];
  const signedNotifications: string[] = [];
  const handlerFields: Record<string, string>[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await call(base, 'POST', `/e/${livePaid.slug}/register`, {
      body: { name: `Buyer ${i}`, email: uniqueEmail('buyer') },
    });
    if (r.status !== 201 || r.body.status !== 'payment_required')
      throw new Error(`paid booking: ${r.status} ${r.text}`);
    orders.push(r.body.orderId);
    if (i >= 2) continue;
    const payment = world.rzp.pay(r.body.orderId);
    const order = world.rzp.orders.get(r.body.orderId)!;
    signedNotifications.push(orderPaidEvent(order, payment), paymentCapturedEvent(payment));
    handlerFields.push({
      razorpay_order_id: r.body.orderId,
      razorpay_payment_id: String(payment.id),
      razorpay_signature: checkoutSignature(r.body.orderId, String(payment.id), world.keySecret),
    });
  }
  signedNotifications.push(
    subscriptionEvent('activated', {
      id: 'sub_Fuzz000000001',
      plan_id: 'plan_Fuzz',
      status: 'active',
      customer_id: 'cust_1',
      current_start: 1,
      current_end: 2,
    }),
    subscriptionEvent(
      'charged',
      { id: 'sub_Fuzz000000002', status: 'active' },
      { payment: { entity: { id: 'pay_x', amount: 100 } } },
    ),
    payoutEvent('payout.processed', {
      id: 'pout_Fuzz00000001',
      status: 'processed',
      amount: 10000,
      utr: 'UTR1',
    }),
    payoutEvent('payout.reversed', { id: 'pout_Fuzz00000002', status: 'reversed', amount: 10000 }),
    JSON.stringify({ event: 'refund.created', payload: {} }),
  );

  // Dashboard sessions: the owner's and the staff member's cookies with their form tokens,
  // and a visitor's pre-session for the public forms (sign-in, sign-up).
  const signIn = async (email: string) => {
    const c = new DashboardClient(base);
    const page = await c.get('/dashboard/login');
    const r = await c.post('/dashboard/login', {
      _csrf: DashboardClient.csrf(page.text),
      email,
      password: 'correct horse battery',
    });
    if (r.status !== 303) throw new Error(`dashboard sign-in: ${r.status} ${r.text.slice(0, 200)}`);
    const events = await c.get('/dashboard/events');
    return { client: c, csrf: DashboardClient.csrf(events.text) };
  };
  // Session tokens, renewed should a request of the run end them.
  const tokens = { owner: owner.token, staff: staff.token };
  const apiSignIn = async (email: string) => {
    const r = await call(base, 'POST', '/auth/login', { body: { email, password: 'correct horse battery' } });
    if (r.status !== 200) throw new Error(`sign-in: ${r.status} ${r.text}`);
    return r.body.idToken as string;
  };
  let ownerCookie = await signIn(owner.email);
  let staffCookie = await signIn(staff.email);
  const visitor = new DashboardClient(base);
  const visitorCsrf = DashboardClient.csrf((await visitor.get('/dashboard/login')).text);
  // The forms' field names, from the pages that show them.
  const names = new Set<string>(['next', 'mode', 'email', 'password', 'name']);
  for (const path of [
    '/dashboard/events',
    '/dashboard/events/new',
    `/dashboard/events/${testFree.id}`,
    `/dashboard/events/${testFree.id}/setup`,
    `/dashboard/events/${testFree.id}/broadcast`,
    `/dashboard/events/${testFree.id}/registrations`,
    '/dashboard/developers',
    '/dashboard/memberships',
    '/dashboard/money',
    '/dashboard/verify',
  ]) {
    for (const n of fieldNames((await ownerCookie.client.get(path)).text)) names.add(n);
  }
  for (const n of fieldNames((await staffCookie.client.get('/dashboard/staff')).text)) names.add(n);
  for (const n of fieldNames((await visitor.get('/dashboard/signup')).text)) names.add(n);

  const realIds: Record<string, string[]> = {
    id: [testFree.id, testPaid.id],
    eventId: [testFree.id, testPaid.id, livePaid.id],
    registrationId: [registrationId],
    rid: [registrationId],
    slug: [livePaid.slug, liveFree.slug, testPaid.slug, testFree.slug],
    orderId: orders,
    userId: [owner.userId],
    keyId: sacrificialKeys,
    index: ['0', '1'],
    action: ['approve', 'reject', 'cancel', 'refund', 'transfer', 'resend'],
    outcome: ['processed', 'failed', 'reversed', 'success', 'failure'],
  };

  // ------------------------------------------------------------------ the routes
  const doc = (await call(base, 'GET', '/api/v1/openapi.json')).body;
  const routes: Route[] = [];
  for (const r of server.app.routeTable) {
    if (r.method === 'HEAD') continue;
    const path = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const op = doc.paths[path]?.[r.method.toLowerCase()];
    const params = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    const rule = r.rule as Rule;
    const group: Route['group'] =
      r.url === '/webhooks/razorpay'
        ? 'webhook'
        : r.url.startsWith('/e/')
          ? 'checkout'
          : rule.kind === 'staff' || (rule.kind === 'cookie' && rule.staff)
            ? 'staff'
            : r.url.startsWith('/dashboard') && r.hidden
              ? 'dashboard'
              : r.hidden
                ? 'other'
                : 'api';
    routes.push({
      method: r.method,
      url: r.url,
      rule,
      params,
      query: (op?.parameters ?? [])
        .filter((p: any) => p.in === 'query')
        .map((p: any) => ({ name: p.name, schema: p.schema })),
      body: op?.requestBody?.content?.['application/json']?.schema,
      group,
    });
  }

  const allowedKeys = (rule: { classes: string[]; modes?: string[] }) => {
    const n = Object.keys(keys).filter((k) => {
      const [cls, mode] = k.split(':') as [string, string];
      return rule.classes.includes(cls) && (!rule.modes || rule.modes.includes(mode));
    });
    return n.length > 0 ? n : Object.keys(keys);
  };
  const destructive = (r: Route) => r.method === 'DELETE' || /\/(delete|revoke)$/.test(r.url);
  const pathArb = (r: Route, name: string): fc.Arbitrary<string> => {
    let real: string[] | undefined = realIds[name];
    if (destructive(r))
      real = name === 'keyId' ? sacrificialKeys : name === 'id' ? victims.map((v) => v.id) : undefined;
    const junk = fc.oneof(hostile.map(text), fc.constant('x'));
    return real
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: junk })
      : junk;
  };
  const PAGE_QUERY = [
    'next',
    'mode',
    'status',
    'limit',
    'startingAfter',
    'q',
    'key',
    'origin',
    'embed',
    'token',
    'v',
  ];

  /** The requests of one route, from the seed. */
  function plan(r: Route, i: number, count: number): Planned[] {
    const seed = options.seed + i;
    const pathTuple = fc.tuple(...r.params.map((p) => pathArb(r, p)));
    const fillPath = (values: string[]) => {
      let url = r.url;
      r.params.forEach((p, j) => (url = url.replace(`:${p}`, enc(String(values[j]).slice(0, 2000)))));
      return url.replace(/\*$/, 'events');
    };
    const withQuery = (url: string, pairs: [string, string | undefined][]) => {
      const qs = pairs
        .filter((p): p is [string, string] => p[1] !== undefined)
        .map(([k, v]) => `${enc(k)}=${enc(v.slice(0, 4000))}`)
        .join('&');
      return qs ? `${url}?${qs}` : url;
    };

    if (r.group === 'webhook') {
      const signed = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...signedNotifications) },
        // A real notification with one field bent, signed as the gateway would.
        {
          weight: 3,
          arbitrary: fc
            .tuple(
              fc.constantFrom(...signedNotifications),
              fc.constantFrom('event', 'payload', 'created_at', 'contains'),
              hostile,
            )
            .map(([n, k, h]) => JSON.stringify({ ...JSON.parse(n), [k]: h })),
        },
        { weight: 2, arbitrary: bent(r.body).map((b) => JSON.stringify(b) ?? 'null') },
      );
      const arb = fc.oneof(
        {
          weight: 3,
          arbitrary: signed.map((body) => ({
            body,
            signature: signWebhook(body, world.webhookSecret),
            how: 'signed',
          })),
        },
        {
          weight: 3,
          arbitrary: fc
            .tuple(
              fc.oneof(
                fc.constantFrom(...signedNotifications),
                bent(r.body).map((b) => JSON.stringify(b) ?? 'null'),
              ),
              fc.constantFrom('none', 'random', 'other secret', 'other body', 'uppercase junk'),
            )
            .map(([body, how]) => ({
              body,
              how: `garbage (${how})`,
              signature:
                how === 'none'
                  ? undefined
                  : how === 'random'
                    ? 'a'.repeat(64)
                    : how === 'other secret'
                      ? signWebhook(body, 'not-the-secret')
                      : how === 'other body'
                        ? signWebhook(body + ' ', world.webhookSecret)
                        : 'ZZ' + 'f'.repeat(62),
            })),
        },
      );
      return fc.sample(arb, { seed, numRuns: count }).map((s) => ({
        method: 'POST',
        url: '/webhooks/razorpay',
        headers: {
          'content-type': 'application/json',
          ...(s.signature === undefined ? {} : { 'x-razorpay-signature': s.signature }),
        },
        body: s.body,
        describe: `POST /webhooks/razorpay ${s.how} ${s.body.slice(0, 200)}`,
      }));
    }

    if (
      r.rule.kind === 'cookie' ||
      r.group === 'dashboard' ||
      (r.group === 'staff' && r.url.startsWith('/dashboard'))
    ) {
      // A dashboard page or form: the cookie of the session the rule needs (or none), the
      // form token (mostly the right one), fields named as the dashboard's forms name them.
      const who = r.rule.kind === 'cookie' ? (r.rule.staff ? 'staff' : 'owner') : 'visitor';
      const fieldValue = fc.oneof(
        { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            '0',
            '1',
            '100',
            '500.50',
            '-1',
            '2027-01-15',
            '2027-01-15T10:00',
            'on',
            'test',
            'live',
            'all',
            'full',
            'checkout',
            'https://shop.example.in',
            uniqueEmail('fz'),
          ),
        },
        { weight: 2, arbitrary: hostile.map(text) },
      );
      const arb = fc.record({
        path: pathTuple,
        cookie: fc.oneof(
          { weight: 8, arbitrary: fc.constant(who) },
          { weight: 1, arbitrary: fc.constantFrom('none', 'owner', 'staff') },
        ),
        csrf: fc.oneof(
          { weight: 8, arbitrary: fc.constant('right') },
          { weight: 1, arbitrary: fc.constantFrom('forged', 'missing') },
        ),
        fields: fc.array(fc.tuple(fc.constantFrom(...names, '__proto__', 'constructor'), fieldValue), {
          maxLength: 8,
        }),
        query: fc.array(
          fc.tuple(fc.constantFrom(...PAGE_QUERY), fc.oneof(fc.string({ maxLength: 20 }), hostile.map(text))),
          { maxLength: 2 },
        ),
        raw: fc.oneof(
          { weight: 9, arbitrary: fc.constant(undefined) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '%zz&&==',
              '_csrf',
              'a=%E0%A4%A',
              '&'.repeat(10_000),
              'a[b][c]=1&a[b]=2',
            ),
          },
        ),
      });
      return fc.sample(arb, { seed, numRuns: count }).map((s): Planned => {
        const session = s.cookie === 'owner' ? ownerCookie : s.cookie === 'staff' ? staffCookie : undefined;
        const cookie = session
          ? session.client.cookieHeader()
          : who === 'visitor'
            ? visitor.cookieHeader()
            : '';
        const token =
          s.csrf === 'forged'
            ? 'forged.token'
            : s.csrf === 'missing'
              ? undefined
              : (session?.csrf ?? visitorCsrf);
        const url = withQuery(fillPath(s.path), s.query);
        if (r.method !== 'POST')
          return {
            method: r.method,
            url,
            headers: cookie ? { cookie } : ({} as Record<string, string>),
            describe: `${r.method} ${url.slice(0, 200)} as ${s.cookie}`,
          };
        const form = new URLSearchParams();
        if (token !== undefined) form.append('_csrf', token);
        for (const [k, v] of s.fields) form.append(k, v.slice(0, 5000));
        const body = s.raw ?? form.toString();
        return {
          method: 'POST',
          url,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: base,
            ...(cookie ? { cookie } : ({} as Record<string, string>)),
          },
          body,
          describe: `POST ${url.slice(0, 200)} as ${s.cookie}, csrf ${s.csrf}: ${body.slice(0, 200)}`,
        };
      });
    }

    // A JSON route (API, hosted page calls, staff API, health, preflight, assets).
    const credential =
      r.rule.kind === 'key'
        ? // Mostly keys the rule lets in, so requests reach validation and the handlers.
          fc.oneof(
            {
              weight: 4,
              arbitrary: fc.constantFrom(...allowedKeys(r.rule)).map((k) => ({ 'x-api-key': keys[k]! })),
            },
            {
              weight: 1,
              arbitrary: fc.constantFrom(...Object.keys(keys)).map((k) => ({ 'x-api-key': keys[k]! })),
            },
          )
        : r.rule.kind === 'staff'
          ? fc.oneof(
              { weight: 4, arbitrary: fc.constant({ authorization: `Bearer ${tokens.staff}` }) },
              { weight: 1, arbitrary: fc.constant({ authorization: `Bearer ${tokens.owner}` }) },
            )
          : r.rule.kind === 'session'
            ? fc.constant({ authorization: `Bearer ${tokens.owner}` })
            : fc.constant({} as Record<string, string>);
    // The hosted page's calls carry the test checkout key (test events) and an origin.
    const pageAccess =
      r.group === 'checkout'
        ? fc.option(fc.constantFrom(keys['checkout:test']!, keys['checkout:live']!, owner.key), {
            nil: undefined,
          })
        : fc.constant(undefined);
    const originHeader =
      r.method === 'OPTIONS' || r.group === 'checkout'
        ? fc.option(fc.constantFrom('https://shop.example.in', 'null', 'https://evil.example.com', base), {
            nil: undefined,
          })
        : fc.constant(undefined);
    const bodyArb: fc.Arbitrary<unknown> = r.body
      ? r.url === '/e/:slug/payment' && handlerFields.length > 0
        ? fc.oneof(
            { weight: 3, arbitrary: bent(r.body) },
            { weight: 1, arbitrary: fc.constantFrom(...handlerFields) },
          )
        : bent(r.body)
      : fc.constant(undefined);
    const arb = fc.record({
      credential,
      path: pathTuple,
      query: fc.tuple(
        ...r.query.map((q) => fc.option(fc.oneof(valid(q.schema), hostile).map(text), { nil: undefined })),
      ),
      body: bodyArb,
      key: pageAccess,
      origin: originHeader,
    });
    return fc.sample(arb, { seed, numRuns: count }).map((s) => {
      let body = s.body;
      const queryPairs: [string, string | undefined][] = r.query.map((q, j) => [q.name, s.query[j]]);
      if (s.key !== undefined) {
        if (body && typeof body === 'object' && !Array.isArray(body))
          body = { ...(body as object), key: s.key };
        else if (r.method === 'GET') queryPairs.push(['key', s.key]);
      }
      const url = withQuery(fillPath(s.path), queryPairs);
      const headers: Record<string, string> = {
        ...s.credential,
        ...(s.origin === undefined ? {} : { origin: s.origin }),
      };
      if (r.method === 'OPTIONS') headers['access-control-request-method'] = 'POST';
      const json = body === undefined ? undefined : JSON.stringify(body);
      if (json !== undefined) headers['content-type'] = 'application/json';
      return {
        method: r.method,
        url,
        headers,
        ...(json === undefined ? {} : { body: json }),
        describe: `${r.method} ${url.slice(0, 300)} ${json?.slice(0, 300) ?? ''} as ${JSON.stringify(s.credential).slice(0, 40)}`,
      };
    });
  }

  /** The deep-nesting ladder for a JSON-body route, with the credentials that reach its parser. */
  function planDeep(r: Route): Planned[] {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (r.rule.kind === 'key') headers['x-api-key'] = keys[allowedKeys(r.rule)[0]!]!;
    if (r.rule.kind === 'session') headers.authorization = `Bearer ${tokens.owner}`;
    if (r.rule.kind === 'staff') headers.authorization = `Bearer ${tokens.staff}`;
    const url = r.url
      .replace(/:([A-Za-z0-9_]+)/g, (_, p: string) => enc(realIds[p]?.[0] ?? 'x'))
      .replace(/\*$/, 'events');
    const out: Planned[] = [];
    for (const d of DEEP_BODIES) {
      out.push({ method: r.method, url, headers, body: d.body, describe: `${r.method} ${url} ${d.name}` });
      if (r.group === 'webhook') {
        out.push({
          method: r.method,
          url,
          headers: { ...headers, 'x-razorpay-signature': signWebhook(d.body, world.webhookSecret) },
          body: d.body,
          describe: `${r.method} ${url} ${d.name}, signed`,
        });
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ the run
  const snap = await snapshotter(server.deps.db);
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    groups: {},
    routesReached: 0,
    routesRegistered: routes.length,
    tablesWatched: snap.tables.length,
    refusalsChecked: 0,
    maxLoopDelayMs: 0,
    maxLoopDelayAt: '',
    slowestMs: 0,
    slowest: '',
    statuses: {},
    failures: [],
  };
  const jsonRoutes = routes.filter((r) => r.body !== undefined);
  const deepFor = new Set(
    options.deepRoutes === undefined
      ? jsonRoutes
      : fc.sample(
          fc.shuffledSubarray(jsonRoutes, {
            minLength: Math.min(options.deepRoutes, jsonRoutes.length),
            maxLength: Math.min(options.deepRoutes, jsonRoutes.length),
          }),
          { seed: options.seed, numRuns: 1 },
        )[0]!,
  );
  // Every route gets its share; the webhook, hosted page and dashboard forms a double one.
  const weightOf = (r: Route) =>
    r.group === 'webhook'
      ? 4
      : r.group === 'checkout' || r.group === 'dashboard' || r.group === 'staff'
        ? 2
        : 1;
  const totalWeight = routes.reduce((n, r) => n + weightOf(r), 0);
  const reached = new Set<string>();
  // The snapshot before the next request, when nothing has been written since it was taken.
  let before: Snapshot | undefined;
  const sessionsEnding = /logout|password|sessions/;

  /** Sends a batch, checks every answer, and returns the longest event-loop delay seen meanwhile (ms). */
  async function runBatch(
    r: Route,
    name: string,
    batch: { label: string; planned: Planned[] },
  ): Promise<number> {
    // Let the monitor's late timer fire, then count from here.
    await new Promise((resolve) => setTimeout(resolve, 30));
    h.reset();
    let maxBusyMs = 0;
    for (const p of batch.planned) {
      before ??= await snap.take();
      const started = performance.now();
      const cpu = process.cpuUsage();
      const elu = performance.eventLoopUtilization();
      const a = await send(base, p);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      // Each is at least as long as any stretch the loop was held during the request: CPU
      // (every thread's, argon2's pool included) and the loop's own time out of its idle wait.
      maxBusyMs = Math.max(
        maxBusyMs,
        Math.min((used.user + used.system) / 1000, performance.eventLoopUtilization(elu).active),
      );
      report.requests++;
      const group = batch.label.endsWith('[deep]') ? 'deep' : r.group;
      report.groups[group] = (report.groups[group] ?? 0) + 1;
      report.statuses[a.status] = (report.statuses[a.status] ?? 0) + 1;
      reached.add(name);
      if (ms > report.slowestMs) {
        report.slowestMs = ms;
        report.slowest = p.describe.slice(0, 120);
      }
      const fail = (problem: string) =>
        report.failures.push({
          operation: batch.label,
          request: p.describe,
          answer: `${a.status} ${a.text.slice(0, 300)}`,
          problem,
        });
      // 503 payments_not_configured is the documented answer of a payment path the
      // service has no credentials for, not a fault.
      if (a.status >= 500 && !(a.status === 503 && a.json?.code === 'payments_not_configured')) fail('5xx');
      if (options.timeBound && ms > MAX_REQUEST_MS) fail(`took ${ms.toFixed(0)} ms`);
      if (
        a.status >= 400 &&
        /json/.test(a.contentType) &&
        (typeof a.json?.error !== 'string' || typeof a.json?.code !== 'string')
      )
        fail('error body is not { error, code }');
      if (a.status >= 400 && a.status < 500) {
        const after = await snap.take();
        report.refusalsChecked++;
        const changed = changedTables(before, after);
        if (changed.length > 0) fail(`refused request wrote: ${changed.join('; ')}`);
        before = after;
      } else {
        before = undefined;
      }
      // A sign-out (or a password change, once there is one) ends a session the run still needs.
      if (a.status < 400 && sessionsEnding.test(r.url)) {
        if (r.url.startsWith('/dashboard')) {
          ownerCookie = await signIn(owner.email);
          staffCookie = await signIn(staff.email);
        } else {
          tokens.owner = await apiSignIn(owner.email);
          tokens.staff = await apiSignIn(staff.email);
        }
        before = undefined;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The event loop can only have been held as long as some request kept it busy: a
    // synchronous stretch of D ms spends D ms of CPU and D ms outside the loop's idle wait.
    // Delay beyond that is this process waiting for a core on a busy machine.
    return Math.min(h.max / 1e6, maxBusyMs);
  }

  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    for (const [i, r] of routes.entries()) {
      const name = `${r.method} ${r.url}`;
      const count = Math.max(2, Math.ceil((options.requests * weightOf(r)) / totalWeight));
      const genStarted = performance.now();
      const batches: { label: string; planned: Planned[] }[] = [{ label: name, planned: plan(r, i, count) }];
      if (deepFor.has(r)) batches.push({ label: `${name} [deep]`, planned: planDeep(r) });
      const genMs = performance.now() - genStarted;
      for (const batch of batches) {
        // The machine's other work can hold this process off the CPU and read as a delay; a
        // batch over the limit is sent again, and counts only if every attempt held the loop.
        // Holds of over half a second are not scheduling noise and are not retried.
        let held = Infinity;
        for (let attempt = 0; attempt < 3 && held > MAX_LOOP_DELAY_MS; attempt++) {
          const opMax = await runBatch(r, name, batch);
          held = Math.min(held, opMax);
          log(
            `${batch.label}: ${batch.planned.length} requests, made in ${genMs.toFixed(0)} ms, max loop delay ${opMax.toFixed(1)} ms${attempt > 0 ? ` (attempt ${attempt + 1})` : ''}; so far ${report.requests} requests, ${report.refusalsChecked} refusals checked, ${report.failures.length} failures${report.failures.length > 0 ? ` (last: ${report.failures.at(-1)!.operation} ${report.failures.at(-1)!.problem.slice(0, 80)})` : ''}`,
          );
          if (opMax > 500) break;
        }
        if (held > report.maxLoopDelayMs) {
          report.maxLoopDelayMs = held;
          report.maxLoopDelayAt = batch.label;
        }
        if (held > MAX_LOOP_DELAY_MS) {
          report.failures.push({
            operation: batch.label,
            request: `${batch.planned.length} requests`,
            answer: '',
            problem: `event loop held ${held.toFixed(0)} ms`,
          });
        }
      }
    }
  } finally {
    h.disable();
  }
  report.routesReached = reached.size;
  return report;
}
