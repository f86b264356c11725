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
  const event = await server.deps.db.selectFrom('events').select(['account_id', 'mode']).where('id', '=', eventId).executeTakeFirstOrThrow();
  const id = randomIds.make('reg', 16);
  const now = server.clock.now();
  // Seeds a booking in any state directly (a fixture, not a path the service takes).
  await server.deps.db.insertInto('registrations').values({
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
  }).execute();
  await server.deps.db
    .insertInto('attendees')
    .values({ id, registration_id: id, idx: 0, name: 'Attendee', email: `${id.toLowerCase()}@example.in`, checked_in_at: spec.checkedIn ? now : null })
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

/** A caller holding one API key: `api(method, path, body?, key?)` (another key for one call). */
export type Api = (method: string, path: string, body?: unknown, key?: string) => Promise<Reply>;

/**
 * Calls with one key. The address and key may be given as functions, read at each call, for a
 * test that makes its server and organiser in `before`.
 */
export function keyApi(baseUrl: string | (() => string), key: string | (() => string)): Api {
  const read = (v: string | (() => string)) => (typeof v === 'function' ? v() : v);
  return (method, path, body, otherKey) => call(read(baseUrl), method, path, { key: otherKey ?? read(key), body });
}

/** What an event needs when the test does not care: a title, a description and a date. */
export const EVENT_DEFAULTS = { title: 'Event', description: 'x', startDate: '2026-12-20' } as const;

/** Creates an event (201 checked), published when asked; answers its id. */
export async function createEvent(api: Api, fields: Record<string, unknown> = {}, options: { publish?: boolean } = {}): Promise<string> {
  const r = await api('POST', '/api/v1/events', { ...EVENT_DEFAULTS, ...fields });
  if (r.status !== 201) throw new Error(`event creation failed: ${r.status} ${r.text}`);
  const id = r.body.data.id as string;
  if (options.publish) {
    const p = await api('PATCH', `/api/v1/events/${id}`, { status: 'published' });
    if (p.status !== 200) throw new Error(`publishing failed: ${p.status} ${p.text}`);
  }
  return id;
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
export async function payInSandbox(api: Api, orderId: string, outcome: 'success' | 'failure' = 'success', key?: string): Promise<string> {
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
  const step1 = await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Buyer', email: uniqueEmail('buyer'), ...buyer });
  if (step1.status !== 201 || !step1.body.orderId) throw new Error(`step 1 failed: ${step1.status} ${step1.text}`);
  const paymentId = await payInSandbox(api, step1.body.orderId as string);
  const ids = { registrationId: step1.body.registrationId as string, orderId: step1.body.orderId as string, paymentId };
  const step2 = await api('POST', `/api/v1/events/${eventId}/register`, ids);
  if (step2.status !== 200) throw new Error(`step 2 failed: ${step2.status} ${step2.text}`);
  return ids;
}
