// Changing an event: its fields, and publishing it (live events need the grant and, when paid,
// live payments), with its seat counters and the audit entry in one transaction.
import type { KeyPrincipal } from '../../http/auth.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import * as audit from '../audit/audit.service.js';
import { loadOwnedEvent } from './event-access.js';
import { eventFacts, isPaid, jsonOrNull, rowPrices } from './event-facts.js';
import type { EventDeps } from './events.deps.js';
import { applyInput, type EventFields, refuseDateField, type EventInput } from './events.input.js';
import * as repo from './events.repo.js';
import type { EventRow } from './events.repo.js';
import { syncSeatCounters } from './seats.service.js';
import { fitToPlan } from './seated-event.js';

export async function patchEvent(
  deps: EventDeps,
  p: KeyPrincipal,
  id: string,
  input: EventInput,
): Promise<EventRow> {
  refuseDateField(input);
  const row = await loadOwnedEvent(deps.db, p, id);
  const fields = applyInput(fieldsOf(row), input);
  await assertPlansKept(deps, row, fields);
  await fitToPlan(deps.db, row.account_id, fields, await deps.seats.kept(row.id));
  const publishing = input.status === 'published' && row.status !== 'published';
  // Test events are never public, so they publish without the grant (docs/decisions/17-the-organisers-office.md).
  if (publishing && row.mode === 'live' && !(await deps.canPublish(p.userId))) {
    throw forbidden(
      'organiser_access_required',
      'publishing a live event needs organiser access on this account (canPublish is false): ask for it with “Request publishing access” on the dashboard; test events publish without it',
    );
  }
  // A paid live event on sale must be payable: refused while the service takes no live payments,
  // whether it is being published or a published event is being made paid.
  const published = (input.status ?? row.status) === 'published';
  if (
    published &&
    row.mode === 'live' &&
    !deps.livePayments &&
    isPaid(fields) &&
    (publishing || !isPaid(rowPrices(row)))
  ) {
    throw conflict(
      'payments_not_configured',
      'a paid live event can be published only once this service takes live payments, which it does not yet; free and test events publish meanwhile',
    );
  }
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.updateEvent(trx, id, {
      ...fields,
      custom_fields: JSON.stringify(fields.custom_fields),
      special_prices: JSON.stringify(fields.special_prices),
      tracks: JSON.stringify(fields.tracks),
      waitlist: jsonOrNull(fields.waitlist),
      self_service: jsonOrNull(fields.self_service),
      offline_payment: jsonOrNull(fields.offline_payment),
      on_sale: jsonOrNull(fields.on_sale),
      status: input.status ?? row.status,
      updated_at: deps.clock.now(),
    });
    if (u) {
      await syncSeatCounters(trx, id, u, (t) => deps.waitlist.seatsFreed(t, id));
      const change = audit.changedFields(eventFacts(row), eventFacts(u));
      const action =
        u.status === 'published' && row.status !== 'published' ? 'event.publish' : 'event.update';
      await audit.recordChange(trx, deps, {
        accountId: row.account_id,
        mode: row.mode,
        actor: audit.actorOfKey(p),
        action,
        target: { type: 'event', id },
        ...change,
      });
    }
    return u;
  });
  if (!updated) throw notFound('no such event', 'event_not_found');
  return updated;
}

/** An event's fields as stored, for applyInput and the plan fit. */
export function fieldsOf(row: EventRow) {
  return {
    title: row.title,
    description: row.description,
    start_date: row.start_date,
    start_at: row.start_at,
    end_date: row.end_date,
    location: row.location,
    capacity: row.capacity,
    price_paise: Number(row.price_paise),
    max_team_size: row.max_team_size,
    requires_approval: row.requires_approval,
    custom_fields: row.custom_fields,
    special_prices: row.special_prices,
    tracks: row.tracks,
    tax_category: row.tax_category,
    supplier_gstin: row.supplier_gstin,
    sac: row.sac,
    venue_state: row.venue_state,
    waitlist: row.waitlist,
    self_service: row.self_service,
    offline_payment: row.offline_payment,
    on_sale: row.on_sale,
    whole_event_option: row.whole_event_option,
    seating_plan_id: row.seating_plan_id,
  };
}

/**
 * Booked and held seats are seats of the plan their sitting has: the event's own plan, or a
 * track's. A sitting keeps its plan while any of its seats is (409 `seating_plan_in_use`).
 */
export async function assertPlansKept(
  deps: EventDeps,
  row: EventRow,
  fields: Pick<EventFields, 'seating_plan_id' | 'tracks'>,
): Promise<void> {
  const planOf = (f: typeof fields, track: number) =>
    track === -1 ? f.seating_plan_id : (f.tracks[track]?.seatingPlanId ?? null);
  const before = [-1, ...row.tracks.keys()].filter((t) => planOf(row, t) !== null);
  const changed = before.filter((t) => planOf(fields, t) !== planOf(row, t));
  if (changed.length === 0) return;
  const inUse = await deps.seats.inUse(row.id);
  const moved = changed.find((t) => inUse.has(t));
  if (moved === undefined) return;
  throw conflict(
    'seating_plan_in_use',
    moved === -1
      ? 'seats of this event are booked or held: its seating plan cannot change until those bookings and holds end'
      : `seats of track ${moved} are booked or held: its seating plan cannot change until those bookings and holds end`,
  );
}

/**
 * Makes a seated event fit its plan again after the plan changed (docs/decisions/23-reserved-seating.md): the
 * capacities become the plan's seats, its seat counters follow, and the audit log says the
 * plan's change did it. The plan's change checked first that the event still fits it. The event is
 * read again under its row lock, so a change of its tracks meanwhile is not written over.
 */
export async function refitToPlan(deps: EventDeps, event: Pick<EventRow, 'id'>): Promise<void> {
  const kept = await deps.seats.kept(event.id);
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.lockEvent(trx, event.id);
    if (!row) return;
    const fields = fieldsOf(row);
    await fitToPlan(trx, row.account_id, fields, kept);
    if (
      fields.capacity === row.capacity &&
      fields.whole_event_option === row.whole_event_option &&
      JSON.stringify(fields.special_prices) === JSON.stringify(row.special_prices) &&
      JSON.stringify(fields.tracks) === JSON.stringify(row.tracks)
    )
      return;
    const u = await repo.updateEvent(trx, row.id, {
      capacity: fields.capacity,
      special_prices: JSON.stringify(fields.special_prices),
      tracks: JSON.stringify(fields.tracks),
      whole_event_option: fields.whole_event_option,
      updated_at: deps.clock.now(),
    });
    if (!u) return;
    await syncSeatCounters(trx, row.id, u, (t) => deps.waitlist.seatsFreed(t, row.id));
    await audit.recordChange(trx, deps, {
      accountId: row.account_id,
      mode: row.mode,
      actor: audit.systemActor('seating_plan_changed'),
      action: 'event.update',
      target: { type: 'event', id: row.id },
      ...audit.changedFields(eventFacts(row), eventFacts(u)),
    });
  });
}
