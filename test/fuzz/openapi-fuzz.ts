// A fuzzer driven by the service's own OpenAPI document. For every operation it makes
// requests from the operation's schemas, bent out of shape (wrong types, huge strings,
// deep nesting, unicode, prototype keys, missing and extra fields, bad ids), sends them
// with every class and mode of key (or a session), and checks the answers: no 5xx, every
// JSON error is { error, code }, nothing written by a refused request, no request over
// 1 s, and the event loop never held for more than 200 ms.
import fc from 'fast-check';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';

export const DEFAULT_SEED = 20261122;
export const MAX_REQUEST_MS = 1000;
export const MAX_LOOP_DELAY_MS = 200;

export interface Failure {
  operation: string;
  request: string;
  answer: string;
  problem: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  maxLoopDelayMs: number;
  /** The operation during whose requests the maximum was seen. */
  maxLoopDelayAt?: string;
  slowestMs: number;
  slowest: string;
  statuses: Record<string, number>;
  failures: Failure[];
}

type Schema = any;

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const HUGE = 'x'.repeat(200_000);
const UNICODE = ['\u0000', '\uffff', '\ud800', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u202e\u0644\u0627', 'Ω≈ç√∫', '🎟️👩‍👩‍👧', 'ﷺ', '\u0301\u0301\u0301', 'a\r\nX-Injected: 1'];

function deepNest(depth: number): unknown {
  return JSON.parse('['.repeat(depth) + ']'.repeat(depth));
}

function protoObject(key: string, value: unknown): Record<string, unknown> {
  // JSON.parse makes "__proto__" an own key, as a hostile JSON body would.
  return JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
}

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.000001, '', ' ', '0', 'null', 'true', '[]', '{}'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...UNICODE),
  fc.constantFrom(HUGE, 'a'.repeat(255), 'a'.repeat(1025), `${'a'.repeat(64)}@${'b'.repeat(190)}.in`, `"${'\\"'.repeat(500)}"@x.in`, `${'a.'.repeat(120)}@x.in`, '"victim@evil.in"@good.in'),
  fc.constantFrom(...PROTO_KEYS),
  fc.constantFrom(deepNest(64), deepNest(2000), [], {}, [[[]]], Array.from({ length: 5000 }, (_, i) => i)),
  fc.constantFrom(...PROTO_KEYS).map((k) => protoObject(k, { polluted: true })),
  fc.constantFrom('reg_', 'ev_', 'ev_' + 'A'.repeat(16), '../../etc/passwd', '%00', '1 OR 1=1', "'; drop table users; --", '$where', '2026-02-30', '9999-12-31T23:59:59Z', '-1', 'NaN', 'Infinity'),
);

/** A value that fits the schema (roughly: formats and patterns are not honoured). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf || schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf).map((s: Schema) => valid(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date' || /date/i.test(schema.description ?? '')) return fc.constantFrom('2026-12-01', '2027-01-15', '2026-12-01T10:00:00+05:30');
      if (schema.format === 'email') return fc.constant(uniqueEmail('fz'));
      if (schema.format === 'date-time') return fc.constantFrom('2026-12-01T10:00:00Z', '2027-06-01T00:00:00+05:30');
      if (schema.format === 'uri') return fc.constantFrom('https://hooks.example.in/x', 'https://shop.example.in');
      return fc.string({ minLength: Math.max(1, schema.minLength ?? 0), maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1000) });
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
      arbitrary: props.length === 0 ? hostile : fc.tuple(base, fc.constantFrom(...props), hostile).map(([v, k, h]) => ({ ...(v as object), [k]: h })),
    },
    { weight: 1, arbitrary: props.length === 0 ? base : fc.tuple(base, fc.constantFrom(...props)).map(([v, k]) => Object.fromEntries(Object.entries(v as object).filter(([x]) => x !== k))) },
    { weight: 2, arbitrary: fc.tuple(base, fc.constantFrom(...PROTO_KEYS, 'extra', 'isAdmin'), hostile).map(([v, k, h]) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...(v as object), ...protoObject(k, h) } : v)) },
    { weight: 2, arbitrary: hostile },
  );
}

interface Operation {
  method: string;
  path: string;
  rule: any;
  params: { name: string; in: string; schema: Schema; required?: boolean }[];
  body: Schema | undefined;
}

export function readOperations(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      out.push({
        method: method.toUpperCase(),
        path,
        rule: op['x-auth'],
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

const WATCHED_TABLES = ['users', 'api_keys', 'events', 'registrations', 'attendees', 'promo_codes', 'plans', 'memberships', 'webhook_configs', 'jobs', 'email_verifications', 'sandbox_orders', 'sandbox_payments'];

async function tableCounts(server: TestServer): Promise<string> {
  const parts = WATCHED_TABLES.map((t) => `(select count(*) from ${t})`).join(" || ',' || ");
  const extra = `(select coalesce(max(updated_at)::text, '') from events)`;
  const r = await sql<{ v: string }>`select ${sql.raw(parts)} || ',' || ${sql.raw(extra)} as v`.execute(server.deps.db);
  return r.rows[0]!.v;
}

/** A generated value as URL text (objects with an own `toString` key defeat String()). */
const text = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));

/** encodeURIComponent for any string: lone surrogates (which it refuses) become U+FFFD. */
const enc = (v: string) => encodeURIComponent(v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

export async function runFuzz(server: TestServer, options: { requests: number; seed: number; log?: (line: string) => void }): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  // Callers: an account with a key of every class and mode, a session, and things to point at.
  const owner: Account & KeyInfo = await organiser(server.url, 'test');
  const keys: Record<string, string> = { 'full:test': owner.key };
  for (const [cls, mode] of [['full', 'live'], ['checkout', 'test'], ['checkout', 'live']] as const) {
    keys[`${cls}:${mode}`] = (await createKey(server.url, owner.token, { mode, class: cls })).key;
  }
  const ev = await call(server.url, 'POST', '/api/v1/events', {
    key: owner.key,
    body: { title: 'Fuzz night', description: 'x', startDate: '2026-12-01', capacity: 50, price: 0, customFields: [{ name: 'constructor', label: 'C', type: 'text' }, { name: 'mail', label: 'Mail', type: 'email' }] },
  });
  const eventId: string = ev.status === 201 ? ev.body.data.id : 'ev_missing';
  const reg = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, { key: owner.key, body: { name: 'Fuzz', email: uniqueEmail('fz') } });
  const registrationId: string = reg.body?.registrationId ?? 'reg_missing';
  const realIds: Record<string, string> = { id: eventId, registrationId, index: '0' };

  const allowedKeys = (rule: { classes: string[]; modes?: string[] }) => {
    const names = Object.keys(keys).filter((k) => {
      const [cls, mode] = k.split(':') as [string, string];
      return rule.classes.includes(cls) && (!rule.modes || rule.modes.includes(mode));
    });
    return names.length > 0 ? names : Object.keys(keys);
  };
  const doc = (await call(server.url, 'GET', '/api/v1/openapi.json')).body;
  const ops = readOperations(doc).filter((o) => o.path !== '/webhooks/razorpay'); // the gateway's signed notifications: a test of its own
  const perOp = Math.max(1, Math.ceil(options.requests / ops.length));
  const report: FuzzReport = { seed: options.seed, requests: 0, maxLoopDelayMs: 0, slowestMs: 0, slowest: '', statuses: {}, failures: [] };

  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    for (const [i, o] of ops.entries()) {
      const name = `${o.method} ${o.path}`;
      const pathParams = o.params.filter((p) => p.in === 'path');
      const query = o.params.filter((p) => p.in === 'query');
      const credential =
        o.rule?.kind === 'key'
          ? // Mostly keys the rule lets in, so requests reach validation and the handlers.
            fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...allowedKeys(o.rule)).map((k) => ({ key: keys[k]! })) },
              { weight: 1, arbitrary: fc.constantFrom(...Object.keys(keys)).map((k) => ({ key: keys[k]! })) },
            )
          : o.rule?.kind === 'session' || o.rule?.kind === 'staff'
            ? fc.constant({ token: owner.token })
            : fc.constant({});
      const arb = fc.record({
        credential,
        path: fc.tuple(...pathParams.map((p) => (o.method === 'DELETE' || !realIds[p.name] ? fc.oneof(hostile.map(text), fc.constant('x')) : fc.oneof({ weight: 3, arbitrary: fc.constant(realIds[p.name]!) }, { weight: 2, arbitrary: hostile.map(text) })))),
        query: fc.tuple(...query.map((p) => fc.option(fc.oneof(valid(p.schema), hostile).map(text), { nil: undefined }))),
        body: o.body ? bent(o.body) : fc.constant(undefined),
      });
      // Generated before the histogram restarts: making samples is the test's work, not the service's.
      const genStarted = performance.now();
      const samples = fc.sample(arb, { seed: options.seed + i, numRuns: perOp });
      const genMs = performance.now() - genStarted;
      // Let the monitor's late timer fire, then count from here.
      await new Promise((r) => setTimeout(r, 30));
      h.reset();
      for (const s of samples) {
        let path = o.path;
        pathParams.forEach((p, j) => (path = path.replace(`{${p.name}}`, enc(String(s.path[j]).slice(0, 2000)))));
        const qs = query
          .map((p, j) => (s.query[j] === undefined ? undefined : `${enc(p.name)}=${enc(String(s.query[j]).slice(0, 4000))}`))
          .filter((x) => x !== undefined)
          .join('&');
        const url = qs ? `${path}?${qs}` : path;
        const mutating = o.method !== 'GET';
        const before = mutating ? await tableCounts(server) : '';
        const started = performance.now();
        const r = await call(server.url, o.method, url, { ...s.credential, ...(s.body !== undefined ? { body: s.body } : {}) });
        const ms = performance.now() - started;
        report.requests++;
        report.statuses[r.status] = (report.statuses[r.status] ?? 0) + 1;
        if (ms > report.slowestMs) {
          report.slowestMs = ms;
          report.slowest = `${o.method} ${url.slice(0, 120)}`;
        }
        const show = () => `${o.method} ${url.slice(0, 300)} ${s.body === undefined ? '' : JSON.stringify(s.body)?.slice(0, 300)} as ${JSON.stringify(s.credential).slice(0, 30)}`;
        const fail = (problem: string) => report.failures.push({ operation: name, request: show(), answer: `${r.status} ${r.text.slice(0, 300)}`, problem });
        // 503 payments_not_configured is the documented answer of live-mode payments on a
        // service without gateway credentials (as here), not a fault.
        if (r.status >= 500 && !(r.status === 503 && r.body?.code === 'payments_not_configured')) fail('5xx');
        if (ms > MAX_REQUEST_MS) fail(`took ${ms.toFixed(0)} ms`);
        const json = /json/.test(r.headers.get('content-type') ?? '');
        if (r.status >= 400 && json && (typeof r.body?.error !== 'string' || typeof r.body?.code !== 'string')) fail('error body is not { error, code }');
        if (mutating && r.status >= 400 && r.status < 500) {
          const after = await tableCounts(server);
          if (after !== before) fail(`refused request wrote: ${before} → ${after}`);
        }
      }
      const opMax = h.max / 1e6;
      report.maxLoopDelayMs = Math.max(report.maxLoopDelayMs, opMax);
      if (opMax > report.maxLoopDelayMs - 0.001) report.maxLoopDelayAt = name;
      log(`${name}: ${samples.length} requests, samples made in ${genMs.toFixed(0)} ms, max loop delay ${opMax.toFixed(1)} ms`);
    }
  } finally {
    h.disable();
  }
  return report;
}
