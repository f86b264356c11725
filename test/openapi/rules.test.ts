// The rules the service enforces are in the served document, and the service does what the
// document says (src/openapi/rules.ts, src/openapi/webhooks.ts): every list's `limit` is an
// integer with its maximum (and the service takes it as one), fields the service requires are
// required, either-or bodies are `oneOf`, refused fields are absent, `Error.code` is the
// catalogue, the 409 refusals that carry more than `{ error, code }` have their shapes, the
// webhook payloads are described (and a real delivery validates), and the answers' headers
// are declared where they are sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ERRORS } from '../../src/lib/errors.js';
import { EVENT_TYPES } from '../../src/modules/webhooks/webhooks.service.js';
import { addRegistration, createEventData, keyApi } from '../helpers/factories.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the service’s rules in the OpenAPI document', { timeout: 300_000 }, () => {
  let server: TestServer;
  let receiver: Receiver;
  let doc: Json;
  let ajv: Ajv2020;
  let org: Account & KeyInfo;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');
  const ops = new Map<string, { method: string; path: string; op: Json }>();

  before(async () => {
    receiver = await startReceiver();
    server = await startServer({
      isolatedDatabase: true,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', STAFF_EMAILS: staffEmail },
    });
    doc = (await call(server.url, 'GET', '/api/v1/openapi.json')).body;
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item))
        if (METHODS.includes(method)) ops.set(op.operationId, { method, path, op });
    }
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://document/', components: doc.components });
    org = await organiser(server.url);
    staff = await signup(server.url, { email: staffEmail });
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const op = (id: string) => ops.get(id)!.op;
  const bodySchema = (id: string) => op(id).requestBody.content['application/json'].schema;
  const component = (s: Json): Json => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s);
  const validate = (schema: Json, value: unknown): string | undefined => {
    const v = ajv.compile(
      JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"https://document/#/components/')),
    );
    return v(value) ? undefined : ajv.errorsText(v.errors);
  };
  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  it('every list’s `limit` is an integer with a maximum, and the service takes it as one (reconciliation’s list too)', async () => {
    const lists = [...ops.values()].filter(({ op: o }) =>
      (o.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'limit'),
    );
    assert.ok(lists.length >= 12, `${lists.length} lists`);
    for (const { op: o } of lists) {
      const limit = o.parameters.find((p: Json) => p.name === 'limit');
      assert.equal(limit.schema.type, 'integer', o.operationId);
      assert.equal(limit.schema.minimum, 1, o.operationId);
      assert.equal(limit.schema.maximum, 1000, o.operationId);
    }
    const reconciliation = await call(server.url, 'GET', '/admin/api/reconciliation/orders?limit=5', {
      token: staff.token,
    });
    assert.equal(reconciliation.status, 200, reconciliation.text);
    for (const path of ['/admin/api/reconciliation/orders', '/api/v1/events']) {
      const over = await call(
        server.url,
        'GET',
        `${path}?limit=1001`,
        path.startsWith('/admin') ? { token: staff.token } : { key: org.key },
      );
      assert.equal(over.status, 400, `${path}: ${over.text}`);
    }
  });

  it('fields the service requires are required, with the defaults it applies', async () => {
    assert.ok(bodySchema('createEvent').required.includes('startDate'));
    // fixture-exception: creation's refusal without a date is the subject
    const without = await api('POST', '/api/v1/events', { title: 'No date', description: 'x' });
    assert.equal(without.status, 400);
    assert.match(without.body.error, /startDate/);
    assert.equal(bodySchema('createEvent').properties.selfService.properties.cutoffHours.default, 24);
    const recurring = component(bodySchema('createPlan').oneOf[0]);
    assert.equal(recurring.properties.kind.default, 'recurring');
    assert.ok(recurring.required.includes('period'));
    // A plan without kind is recurring, so it needs a period: as the document says.
    const noPeriod = await api('POST', '/api/v1/memberships/plans', { name: 'Monthly', amount: 100 });
    assert.equal(noPeriod.status, 400);
    assert.match(noPeriod.body.error, /period/);
  });

  it('either-or bodies are oneOf, and a body matching neither form is refused by the service too', async () => {
    for (const id of ['register', 'checkIn', 'createPlan', 'createPromoCode']) {
      const forms = bodySchema(id).oneOf;
      assert.ok(Array.isArray(forms) && forms.length === 2, `${id} has two forms`);
    }
    const ev = await createEventData(api, { title: 'Forms', startDate: '2027-03-01' });
    const cases: [string, string, string, unknown][] = [
      [
        'createPromoCode',
        'POST',
        `/api/v1/events/${ev.id}/promo-codes`,
        { code: 'BOTH', discountPercent: 10, discountAmount: 50 },
      ],
      ['createPromoCode', 'POST', `/api/v1/events/${ev.id}/promo-codes`, { code: 'NONE' }],
      ['checkIn', 'POST', `/api/v1/events/${ev.id}/check-in`, {}],
      [
        'register',
        'POST',
        `/api/v1/events/${ev.id}/register`,
        { name: 'Mixed', email: 'mixed@example.in', registrationId: 'reg_x' },
      ],
      [
        'createPlan',
        'POST',
        '/api/v1/memberships/plans',
        { name: 'Both', amount: 100, kind: 'fixed_term', termMonths: 12, period: 'monthly' },
      ],
    ];
    for (const [id, method, path, body] of cases) {
      assert.ok(
        validate(bodySchema(id), body) !== undefined,
        `${id}: the document refuses ${JSON.stringify(body)}`,
      );
      const r = await api(method, path, body);
      assert.equal(r.status, 400, `${id}: the service refuses ${JSON.stringify(body)}: ${r.text}`);
    }
    // And each form the document allows is taken.
    const percent = await api('POST', `/api/v1/events/${ev.id}/promo-codes`, {
      code: 'TENOFF',
      discountPercent: 10,
    });
    assert.equal(percent.status, 201, percent.text);
    const amount = await api('POST', `/api/v1/events/${ev.id}/promo-codes`, {
      code: 'FIFTY',
      discountAmount: 50,
    });
    assert.equal(amount.status, 201, amount.text);
  });

  it('fields the service always refuses are not in the document', async () => {
    for (const { op: o } of ops.values()) {
      for (const media of Object.values<Json>(o.requestBody?.content ?? {})) {
        for (const form of media.schema.oneOf?.map(component) ?? [media.schema]) {
          for (const [name, s] of Object.entries<Json>(form.properties ?? {})) {
            assert.ok(
              s.type || s.anyOf || s.oneOf || s.$ref || s.enum || s.const !== undefined,
              `${o.operationId}: ${name} accepts anything`,
            );
          }
        }
      }
    }
    assert.equal(bodySchema('putWebhookConfig').properties.secret, undefined);
    assert.equal(bodySchema('createEvent').properties.date, undefined);
    assert.equal(bodySchema('broadcast').properties.bcc, undefined);
    const secret = await api('PUT', '/api/v1/webhooks', {
      url: 'https://hooks.example.in/x',
      secret: 'mine',
    });
    assert.equal(secret.status, 400);
    assert.equal(secret.body.code, 'secret_not_accepted');
  });

  it('Error.code enumerates the catalogue, and the 409 refusals with more fields have their shapes', async () => {
    assert.deepEqual(doc.components.schemas.Error.properties.code.enum, Object.keys(ERRORS).sort());
    // Check-in: a cancelled ticket is refused with refusalReason and data, as CheckInRefusal says.
    const ev = await createEventData(api, { title: 'Door', startDate: '2027-03-01' });
    const cancelled = await addRegistration(server, ev.id, { status: 'cancelled' });
    const refused = await api('POST', `/api/v1/events/${ev.id}/check-in`, { registrationId: cancelled });
    assert.equal(refused.status, 409, refused.text);
    const checkIn409 = op('checkIn').responses['409'].content['application/json'].schema;
    const shape = component(checkIn409);
    const own = shape.allOf.find((s: Json) => s.properties);
    assert.ok(
      own.properties.refusalReason && own.properties.data,
      'CheckInRefusal declares refusalReason and data',
    );
    assert.ok(refused.body.refusalReason && refused.body.data, refused.text);
    assert.equal(validate(checkIn409, refused.body), undefined);
    // Strictly: no field of the answer is left undeclared.
    for (const field of Object.keys(refused.body))
      assert.ok(
        field in own.properties || field in doc.components.schemas.Error.properties,
        `409 field ${field} is declared`,
      );
    // Broadcast: a send whose confirmed count is stale answers the count now.
    await addRegistration(server, ev.id);
    const stale = await api('POST', `/api/v1/events/${ev.id}/broadcast`, {
      subject: 'Hi',
      message: 'Hello',
      dryRun: false,
      confirmedRecipientCount: 5,
    });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body.code, 'audience_changed');
    const broadcast409 = op('broadcast').responses['409'].content['application/json'].schema;
    assert.ok(component(broadcast409).allOf.find((s: Json) => s.properties).properties.recipientCount);
    assert.equal(validate(broadcast409, stale.body), undefined);
    for (const r of [refused, stale])
      assert.ok((doc.components.schemas.Error.properties.code.enum as string[]).includes(r.body.code));
  });

  it('the webhooks section describes every payload, and a real delivery validates against it', async () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_TYPES].sort());
    assert.equal((await api('PUT', '/api/v1/webhooks', { url: `${receiver.url}/hook` })).status, 200);
    const ev = await createEventData(api, { title: 'Hooked', startDate: '2027-03-01' });
    assert.equal(
      (await api('POST', `/api/v1/events/${ev.id}/register`, { name: 'Asha', email: uniqueEmail('asha') }))
        .status,
      201,
    );
    await drainJobs(server, async () => receiver.received.length >= 1);
    const delivery = receiver.received[0]!;
    const hook = doc.webhooks['registration.confirmed'].post;
    const payload = JSON.parse(delivery.body);
    assert.equal(
      validate(hook.requestBody.content['application/json'].schema, payload),
      undefined,
      delivery.body,
    );
    for (const h of hook.parameters) {
      const value = delivery.headers[h.name.toLowerCase()];
      assert.equal(typeof value, 'string', `${h.name} sent`);
      if (h.schema.pattern) assert.match(value as string, new RegExp(h.schema.pattern), h.name);
    }
  });

  it('declares the headers the answers carry: X-Request-Id, RateLimit-*, Idempotent-Replayed, ETag', async () => {
    const declared = (id: string, status: string) =>
      Object.keys(op(id).responses[status].headers ?? {}).map((h) => h.toLowerCase());
    const list = await api('GET', '/api/v1/events');
    for (const h of declared('listEvents', '200'))
      assert.ok(list.headers.get(h) !== null, `listEvents 200 sends ${h}`);
    for (const h of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
      assert.ok(declared('listEvents', '200').includes(h), `listEvents declares ${h}`);
    assert.ok(declared('listEvents', '429').includes('retry-after'));
    // A replayed POST says so.
    const body = { title: 'Once', description: 'x', startDate: '2027-03-01' };
    const key = { 'idempotency-key': `rules-${Date.now()}` };
    // fixture-exception: creation's replay answer is the subject
    const first = await api('POST', '/api/v1/events', body, { headers: key });
    // fixture-exception: the replay itself
    const again = await api('POST', '/api/v1/events', body, { headers: key });
    assert.equal(first.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.ok(declared('createEvent', '201').includes('idempotent-replayed'));
    // A cached asset carries its ETag.
    const script = await fetch(`${server.url}/embed.js`);
    assert.ok(script.headers.get('etag'));
    assert.ok(declared('getEmbedScript', '200').includes('etag'));
    assert.ok(declared('getEmbedScript', '304').includes('etag'));
    // A header a route declares itself (a download's Content-Disposition) is declared by reference too.
    const csv = await fetch(`${server.url}/api/v1/ledger/export`, { headers: { 'x-api-key': org.key } });
    assert.equal(csv.status, 200, await csv.text());
    assert.match(csv.headers.get('content-disposition') ?? '', /^attachment; filename=/);
    assert.ok(declared('exportLedger', '200').includes('content-disposition'));
    assert.equal(
      op('exportLedger').responses['200'].headers['Content-Disposition'].$ref,
      '#/components/headers/Content-Disposition',
    );
    // Every declared header is defined once, under components.headers.
    for (const { op: o } of ops.values()) {
      for (const [status, r] of Object.entries<Json>(o.responses)) {
        for (const [name, h] of Object.entries<Json>(r.headers ?? {})) {
          assert.ok(doc.components.headers[h.$ref?.split('/').pop()], `${o.operationId} ${status} ${name}`);
        }
      }
    }
  });
});
