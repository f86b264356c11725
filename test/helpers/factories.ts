// Data-layer factories for states the API cannot reach yet.
import type { TestServer } from './server.js';
import { insertRegistration } from '../../src/modules/registrations/registrations.service.js';
import { randomIds } from '../../src/shared/ids.js';
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
  await insertRegistration(server.deps.db, {
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
  });
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
