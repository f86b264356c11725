// Rules the service enforces that the routes' validation schemas cannot say by themselves,
// written into the document in one place so a generated client knows them:
// - every list's `limit` is an integer from 1 to PAGE_MAX (the routes take the query text and
//   parse it with parseLimit; on the wire an integer query value is that text);
// - a field the service always refuses is left out of the body's schema (the route declares it
//   only to answer a clearer 400 than "unknown field"); with `additionalProperties: false` a
//   client then cannot send it;
// - fields the service requires in code, the defaults it applies, and bodies that come in
//   either-or forms (`oneOf`) (BODY_RULES, checked against the service in rules.test.ts);
// - `Error.code` lists every code of the catalogue (src/lib/errors.ts); the refusals that
//   carry more than `{ error, code }` have named shapes (CheckInRefusal, AudienceChanged);
// - the headers answers carry (X-Request-Id, RateLimit-*, Retry-After, Idempotent-Replayed, ETag),
//   and those a route declares itself, each defined once under components.headers.
import { ERRORS } from '../lib/errors.js';
import { PAGE_DEFAULT, PAGE_MAX } from '../http/paging.js';

type Json = Record<string, any>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const ERROR_REF = '#/components/schemas/Error';

/** A declared-but-refused body field: no type, and a description that says it is refused. */
const isRefused = (schema: Json): boolean =>
  schema.type === undefined &&
  schema.anyOf === undefined &&
  schema.oneOf === undefined &&
  schema.$ref === undefined &&
  /^(Refused|Not an input)/.test(String(schema.description ?? ''));

interface Variant {
  title: string;
  description: string;
  /** Only these fields (default: all of the body's). */
  pick?: readonly string[];
  /** All but these fields. */
  omit?: readonly string[];
  required: readonly string[];
  /** Narrows a field's schema in this variant (e.g. `kind` to one value). */
  narrow?: Readonly<Record<string, Json>>;
}

interface BodyRule {
  /** Fields the service requires though the route's schema leaves them optional. */
  required?: readonly string[];
  /** Defaults the service applies, by field path (`selfService.cutoffHours`). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The body's either-or forms, exactly one of which a request takes. */
  oneOf?: readonly Variant[];
}

export const BODY_RULES: Readonly<Record<string, BodyRule>> = {
  createEvent: {
    required: ['startDate'],
    defaults: {
      capacity: 0,
      price: 0,
      maxTeamSize: 1,
      requiresApproval: false,
      taxCategory: 'standard',
      'waitlist.enabled': false,
      'waitlist.offerMinutes': 60,
      'selfService.transfer': false,
      'selfService.cancel': false,
      'selfService.cutoffHours': 24,
    },
  },
  register: {
    oneOf: [
      {
        title: 'RegisterBooking',
        description: 'A booking: free in one call, or step 1 of a paid one.',
        omit: ['registrationId', 'orderId', 'paymentId'],
        required: ['name', 'email'],
      },
      {
        title: 'RegisterPayment',
        description: 'Step 2 of a paid booking: exactly these three fields.',
        pick: ['registrationId', 'orderId', 'paymentId'],
        required: ['registrationId', 'orderId', 'paymentId'],
      },
    ],
  },
  checkIn: {
    defaults: { undo: false },
    oneOf: [
      {
        title: 'CheckInByRegistrationId',
        description: 'The scanned QR value as `registrationId`.',
        omit: ['qr'],
        required: ['registrationId'],
      },
      {
        title: 'CheckInByQr',
        description: 'The scanned QR value as `qr` (an alias).',
        omit: ['registrationId'],
        required: ['qr'],
      },
    ],
  },
  createPlan: {
    oneOf: [
      {
        title: 'RecurringPlanInput',
        description: 'A recurring plan (the default kind): charged every `period` through a mandate.',
        omit: ['termMonths'],
        required: ['name', 'amount', 'period'],
        narrow: { kind: { type: 'string', enum: ['recurring'], default: 'recurring' } },
      },
      {
        title: 'FixedTermPlanInput',
        description: 'A fixed-term plan: paid once, valid for `termMonths`.',
        omit: ['period', 'totalCount'],
        required: ['name', 'amount', 'kind', 'termMonths'],
        narrow: { kind: { type: 'string', enum: ['fixed_term'] } },
      },
    ],
  },
  createPromoCode: {
    oneOf: [
      {
        title: 'PercentPromoCodeInput',
        description: 'A percentage off.',
        omit: ['discountAmount'],
        required: ['code', 'discountPercent'],
      },
      {
        title: 'AmountPromoCodeInput',
        description: 'A fixed amount off, in rupees.',
        omit: ['discountPercent'],
        required: ['code', 'discountAmount'],
      },
    ],
  },
  putWebhookConfig: { defaults: { enabled: true, rotateSecret: false } },
  broadcast: { defaults: { audience: 'confirmed', dryRun: true } },
  cancelMembership: { defaults: { immediate: false } },
};

/** Header objects every answer may carry, by name. */
const HEADERS: Readonly<Record<string, Json>> = {
  'X-Request-Id': {
    description:
      'The request’s id, also in the service’s log lines: quote it when asking about a request. A sane `X-Request-Id` sent by the caller is kept.',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed in the current one-minute window.',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: {
    description: 'The content’s version; send it as `If-None-Match` to get 304 while it holds.',
    schema: { type: 'string' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

function variantSchema(body: Json, v: Variant): Json {
  const properties: Json = {};
  for (const [name, schema] of Object.entries<Json>(body.properties ?? {})) {
    if (v.pick && !v.pick.includes(name)) continue;
    if (v.omit?.includes(name)) continue;
    properties[name] = v.narrow?.[name] ?? schema;
  }
  return {
    title: v.title,
    description: v.description,
    type: 'object',
    required: [...v.required],
    properties,
    additionalProperties: false,
  };
}

function setDefault(schema: Json, path: string, value: unknown): void {
  const steps = path.split('.');
  let node: Json | undefined = schema;
  for (const step of steps) {
    const objectForm: Json | undefined = node?.properties
      ? node
      : (node?.anyOf as Json[] | undefined)?.find((s) => s.properties);
    node = objectForm?.properties?.[step];
  }
  if (!node) throw new Error(`BODY_RULES: no field ${path}`);
  node.default = value;
}

function applyBodyRule(op: Json, rule: BodyRule): void {
  const media = op.requestBody?.content?.['application/json'];
  if (!media?.schema) throw new Error(`BODY_RULES: ${op.operationId} takes no JSON body`);
  const body = media.schema as Json;
  for (const name of rule.required ?? []) {
    if (!body.properties?.[name]) throw new Error(`BODY_RULES: ${op.operationId} has no field ${name}`);
    body.required = [...new Set([...(body.required ?? []), name])];
  }
  for (const [path, value] of Object.entries(rule.defaults ?? {})) setDefault(body, path, value);
  if (rule.oneOf) media.schema = { oneOf: rule.oneOf.map((v) => variantSchema(body, v)) };
}

/** The 409 refusal shapes: Error plus the fields those refusals carry. */
function refusalShapes(byId: Map<string, Json>): void {
  const checkIn = byId.get('checkIn');
  const status =
    byId.get('lookUpTicket')?.responses?.['200']?.content?.['application/json']?.schema?.properties?.data;
  if (checkIn?.responses?.['409'] && status) {
    checkIn.responses['409'].content['application/json'].schema = {
      title: 'CheckInRefusal',
      description:
        '`not_admissible` and `transferred` carry why (`refusalReason`) and the ticket as the door sees it (`data`); other 409s are a plain Error.',
      allOf: [
        { $ref: ERROR_REF },
        {
          type: 'object',
          properties: {
            refusalReason: {
              ...status.properties.refusalReason,
              description: 'Why the ticket is not admitted.',
            },
            reason: { type: 'string', enum: ['transferred'], description: 'Set for a transferred ticket.' },
            data: status,
          },
        },
      ],
    };
    checkIn.responses['409'].description =
      'Not admitted (`not_admissible`, `transferred`: see `refusalReason` and `data`), or another conflict.';
  }
  const broadcast = byId.get('broadcast');
  if (broadcast?.responses?.['409']) {
    broadcast.responses['409'].content['application/json'].schema = {
      title: 'AudienceChanged',
      description:
        '`audience_changed`: the audience moved since the preview; `recipientCount` is the count now (preview again, or send with it).',
      allOf: [
        { $ref: ERROR_REF },
        {
          type: 'object',
          properties: {
            recipientCount: { type: 'integer', minimum: 0, description: 'Recipients the audience has now.' },
          },
        },
      ],
    };
  }
}

/** A header's usual spelling: `content-disposition` → `Content-Disposition`. */
const spelling = (name: string) =>
  name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('-');

/**
 * A header a route declares itself (a download's `Content-Disposition`, …) is moved under
 * components.headers by its usual spelling, so every header is defined once and referred to;
 * two routes declaring the same header differently get one entry each (`Name.operationId`).
 */
function shareHeader(doc: Json, op: Json, name: string, header: Json): string {
  const shared = (doc.components.headers ??= {}) as Json;
  const key = spelling(name);
  if (shared[key] === undefined) shared[key] = header;
  if (JSON.stringify(shared[key]) === JSON.stringify(header)) return key;
  const own = `${key}.${String(op.operationId)}`;
  shared[own] = header;
  return own;
}

function addHeaders(doc: Json, op: Json): void {
  const responses = (op.responses ?? {}) as Record<string, Json>;
  const limited = '429' in responses;
  const idempotent = ((op.parameters ?? []) as Json[]).some(
    (p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key',
  );
  const cached = '304' in responses;
  for (const [status, response] of Object.entries(responses)) {
    const headers: Json = {};
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      if (header.$ref !== undefined) headers[name] = header;
      else {
        const key = shareHeader(doc, op, name, header);
        headers[spelling(name)] = ref(key);
      }
    }
    headers['X-Request-Id'] = ref('X-Request-Id');
    if (limited)
      for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) headers[h] = ref(h);
    if (status === '429' || (status === '409' && idempotent)) headers['Retry-After'] = ref('Retry-After');
    if (idempotent && status.startsWith('2')) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
    if (cached && (status === '200' || status === '304')) headers.ETag = ref('ETag');
    response.headers = headers;
  }
}

export function applyRules(doc: Json): void {
  const byId = new Map<string, Json>();
  doc.components ??= {};
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!METHODS.has(method) || !op || typeof op !== 'object') continue;
      byId.set(String(op.operationId), op);
      for (const p of (op.parameters ?? []) as Json[]) {
        if (p.in === 'query' && p.name === 'limit' && p.schema?.type === 'string') {
          p.schema = { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT };
          p.description ??= `Items per page, 1 to ${PAGE_MAX} (default ${PAGE_DEFAULT}).`;
        }
      }
      for (const media of Object.values<Json>(op.requestBody?.content ?? {})) {
        const properties = media.schema?.properties as Json | undefined;
        if (!properties) continue;
        for (const [name, schema] of Object.entries<Json>(properties))
          if (isRefused(schema)) delete properties[name];
      }
      addHeaders(doc, op);
    }
  }
  for (const [id, rule] of Object.entries(BODY_RULES)) {
    const op = byId.get(id);
    if (op) applyBodyRule(op, rule);
  }
  refusalShapes(byId);
  const components = (doc.components ??= {}) as Json;
  components.headers = { ...(components.headers ?? {}), ...HEADERS };
  const error = components.schemas?.Error as Json | undefined;
  if (error?.properties?.code)
    error.properties.code = { ...error.properties.code, enum: Object.keys(ERRORS).sort() };
}
