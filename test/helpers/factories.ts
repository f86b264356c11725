// Test data: data-layer factories for states the API cannot reach yet, and scenarios made
// through the HTTP API (a caller with a key, an organiser with an event, a paid booking).
import { call, organiser, uniqueEmail, type Account, type KeyInfo, type Reply } from './http.js';
import type { TestServer } from './server.js';
import { randomIds } from '../../src/lib/ids.js';
import { claimSeats, EVENT_SCOPE, tierScope, trackScope } from '../../src/modules/events/events.service.js';

export async function addRegistration(
  server: TestServer,
  eventId: string,
  spec: {
    status?: 'pending' | 'confirmed' | 'cancelled' | 'refunded';
    quantity?: number;
    ticketType?: string;
    subEventId?: number | null;
    amountPaise?: number;
    checkedIn?: boolean;
  } = {},
): Promise<string> {
  const event = await server.deps.db
    .selectFrom('events')
    .select(['account_id', 'mode'])
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const id = randomIds.make('reg', 16);
  const now = server.clock.now();
  // Seeds a booking in any state directly (a fixture, not a path the service takes).
  await server.deps.db
    .insertInto('registrations')
    .values({
      id,
      event_id: eventId,
      account_id: event.account_id,
      mode: event.mode,
      status: spec.status ?? 'confirmed',
      name: 'Attendee',
      email: `${id.toLowerCase()}@example.in`,
      phone: null,
      ticket_type: spec.ticketType ?? 'General',
      sub_event_id: spec.subEventId ?? null,
      quantity: spec.quantity ?? 1,
      amount_paise: spec.amountPaise ?? 0,
      custom_fields: '{}',
      promo_code: null,
      ticket_code: null,
      created_at: now,
      confirmed_at: (spec.status ?? 'confirmed') === 'confirmed' ? now : null,
    })
    .execute();
  await server.deps.db
    .insertInto('attendees')
    .values({
      id,
      registration_id: id,
      event_id: eventId,
      idx: 0,
      name: 'Attendee',
      email: `${id.toLowerCase()}@example.in`,
      checked_in_at: spec.checkedIn ? now : null,
    })
    .execute();
  if ((spec.status ?? 'confirmed') === 'confirmed') {
    const scopes = [EVENT_SCOPE];
    if (spec.ticketType && spec.ticketType !== 'General') scopes.push(tierScope(spec.ticketType));
    if (spec.subEventId !== undefined && spec.subEventId !== null) scopes.push(trackScope(spec.subEventId));
    const claimed = await claimSeats(server.deps.db, eventId, scopes, spec.quantity ?? 1);
    if (!claimed) throw new Error('factory registration does not fit the capacity');
  }
  return id;
}

// ---------------------------------------------------------------- scenarios through the HTTP API

/**
 * A caller holding one API key: `api(method, path, body?, key?)`, where the fourth argument is
 * another key for one call, or `{ key?, headers? }` to send headers too.
 */
export type Api = (
  method: string,
  path: string,
  body?: unknown,
  key?: string | { key?: string; headers?: Record<string, string> },
) => Promise<Reply>;

/**
 * Calls with one key. The address and key may be given as functions, read at each call, for a
 * test that makes its server and organiser in `before`.
 */
export function keyApi(baseUrl: string | (() => string), key: string | (() => string)): Api {
  const read = (v: string | (() => string)) => (typeof v === 'function' ? v() : v);
  return (method, path, body, other) => {
    const options = typeof other === 'string' ? { key: other } : (other ?? {});
    return call(read(baseUrl), method, path, {
      key: options.key ?? read(key),
      body,
      headers: options.headers,
    });
  };
}

/** A caller that checks each answer is a success (below 300) and answers its body. */
export function okApi(api: Api): (...args: Parameters<Api>) => Promise<any> {
  return async (method, path, body, key) => {
    const r = await api(method, path, body, key);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
}

/** What an event needs when the test does not care: a title, a description and a date. */
export const EVENT_DEFAULTS = { title: 'Event', description: 'x', startDate: '2026-12-20' } as const;

/** The event as the API answers it (id, slug, status and every field). */
export type EventData = { id: string; slug: string; [field: string]: any };

/** Creates an event (201 checked), published when asked; answers it as the API served it. */
export async function createEventData(
  api: Api,
  fields: Record<string, unknown> = {},
  options: { publish?: boolean } = {},
): Promise<EventData> {
  const r = await api('POST', '/api/v1/events', { ...EVENT_DEFAULTS, ...fields });
  if (r.status !== 201) throw new Error(`event creation failed: ${r.status} ${r.text}`);
  const data = r.body.data as EventData;
  if (!options.publish) return data;
  const p = await api('PATCH', `/api/v1/events/${data.id}`, { status: 'published' });
  if (p.status !== 200) throw new Error(`publishing failed: ${p.status} ${p.text}`);
  return p.body.data as EventData;
}

/** Creates an event (201 checked), published when asked; answers its id. */
export async function createEvent(
  api: Api,
  fields: Record<string, unknown> = {},
  options: { publish?: boolean } = {},
): Promise<string> {
  return (await createEventData(api, fields, options)).id;
}

/** An organiser with a full key in `mode`, its `api`, and one event made with `fields`. */
export async function organiserWithEvent(
  baseUrl: string,
  fields: Record<string, unknown> = {},
  options: { mode?: 'test' | 'live'; publish?: boolean } = {},
): Promise<{ org: Account & KeyInfo; api: Api; eventId: string }> {
  const org = await organiser(baseUrl, options.mode ?? 'test');
  const api = keyApi(baseUrl, org.key);
  return { org, api, eventId: await createEvent(api, fields, { publish: options.publish }) };
}

/** Pays a sandbox order (201 checked) with `outcome`; answers the payment's id. */
export async function payInSandbox(
  api: Api,
  orderId: string,
  outcome: 'success' | 'failure' = 'success',
  key?: string,
): Promise<string> {
  const pay = await api('POST', '/api/v1/sandbox/payments', { orderId, outcome }, key);
  if (pay.status !== 201) throw new Error(`sandbox payment failed: ${pay.status} ${pay.text}`);
  return pay.body.paymentId as string;
}

/**
 * A paid booking in test mode: step 1, paid at the sandbox gateway, step 2 (each answer
 * checked). Answers the ids the three steps gave.
 */
export async function paidBooking(
  api: Api,
  eventId: string,
  buyer: Record<string, unknown> = {},
): Promise<{ registrationId: string; orderId: string; paymentId: string }> {
  const step1 = await api('POST', `/api/v1/events/${eventId}/register`, {
    name: 'Buyer',
    email: uniqueEmail('buyer'),
    ...buyer,
  });
  if (step1.status !== 201 || !step1.body.orderId)
    throw new Error(`step 1 failed: ${step1.status} ${step1.text}`);
  const paymentId = await payInSandbox(api, step1.body.orderId as string);
  const ids = {
    registrationId: step1.body.registrationId as string,
    orderId: step1.body.orderId as string,
    paymentId,
  };
  const step2 = await api('POST', `/api/v1/events/${eventId}/register`, ids);
  if (step2.status !== 200) throw new Error(`step 2 failed: ${step2.status} ${step2.text}`);
  return ids;
}
