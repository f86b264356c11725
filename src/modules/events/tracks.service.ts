// Tracks of an event (sessions with their own price and capacity): adding and changing
// one, with the event's seat counters kept in step. A track may be seated from a plan of its own
// (docs/decisions/23-reserved-seating.md): then it is fitted to its plan before it is written, and
// the event's capacities (its tiers' are over every track) are refitted after.
import type { TrackDoc } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import * as audit from '../audit/audit.service.js';
import { conflict, notFound } from '../../lib/errors.js';
import { validateTrack, type TrackInput } from './events.input.js';
import * as repo from './events.repo.js';
import type { EventRow } from './events.repo.js';
import { dropTrackCountersFrom, lockSeatCounters, syncSeatCounters } from './seats.service.js';
import { loadOwnedEvent, type EventDeps } from './events.service.js';
import { assertPlansKept, fieldsOf, refitToPlan } from './patch-event.service.js';
import { fitToPlan, plansNamed } from './seated-event.js';

/** The event's tracks as they will be, fitted to their plans when seated (400 `invalid_seating_plan` when they cannot be). */
async function fitted(deps: EventDeps, row: EventRow, tracks: TrackDoc[]): Promise<TrackDoc[] | undefined> {
  const fields = { ...fieldsOf(row), tracks };
  if (plansNamed(fields).length === 0) return undefined;
  await fitToPlan(deps.db, row.account_id, fields, await deps.seats.kept(row.id));
  return fields.tracks;
}

export async function addTrack(
  deps: EventDeps,
  p: KeyPrincipal,
  id: string,
  input: TrackInput,
): Promise<{ index: number; row: EventRow }> {
  const event = await loadOwnedEvent(deps.db, p, id);
  const given = validateTrack(input, '');
  const seated = await fitted(deps, event, [...event.tracks, given]);
  const track = seated?.at(-1) ?? given;
  const index = await deps.db.transaction().execute(async (trx) => {
    const i = await repo.appendTrack(trx, id, track, deps.clock.now());
    if (i !== undefined) {
      await syncSeatCounters(trx, id, (await repo.findEvent(trx, id))!, (t) =>
        deps.waitlist.seatsFreed(t, id),
      );
      await audit.recordChange(trx, deps, {
        accountId: event.account_id,
        mode: event.mode,
        actor: audit.actorOfKey(p),
        action: 'track.create',
        target: { type: 'track', id: `${id}/${i}` },
        after: { ...track },
      });
    }
    return i;
  });
  if (index === undefined) throw notFound('no such event', 'event_not_found');
  if (seated) await refitToPlan(deps, event);
  return { index, row: (await repo.findEvent(deps.db, id))! };
}

export async function patchTrack(
  deps: EventDeps,
  p: KeyPrincipal,
  id: string,
  index: number,
  input: TrackInput,
): Promise<EventRow> {
  const row = await loadOwnedEvent(deps.db, p, id);
  const current = row.tracks[index];
  if (!current)
    throw notFound(`no track at index ${index}; this event has ${row.tracks.length}`, 'track_not_found');
  const given = validateTrack(input, '', current);
  const tracks = row.tracks.map((t, i) => (i === index ? given : t));
  await assertPlansKept(deps, row, { seating_plan_id: row.seating_plan_id, tracks });
  const seated = await fitted(deps, row, tracks);
  const track = seated?.[index] ?? given;
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.replaceTrack(trx, id, index, track, deps.clock.now());
    if (u) {
      await syncSeatCounters(trx, id, u, (t) => deps.waitlist.seatsFreed(t, id));
      await audit.recordChange(trx, deps, {
        accountId: row.account_id,
        mode: row.mode,
        actor: audit.actorOfKey(p),
        action: 'track.update',
        target: { type: 'track', id: `${id}/${index}` },
        ...audit.changedFields({ ...current }, { ...track }),
      });
    }
    return u;
  });
  if (!updated) throw notFound(`no track at index ${index}`, 'track_not_found');
  if (!seated) return updated;
  await refitToPlan(deps, row);
  return (await repo.findEvent(deps.db, id))!;
}

/**
 * Removes a track while nobody has booked it (docs/decisions/17-the-organisers-office.md). Tracks are addressed by position, and
 * bookings, waitlist entries, tickets and the door name theirs by index; so a track goes only
 * while no booking (of any status) or waitlist entry names it or a later track, whose indexes
 * would otherwise move under them: 409 `track_in_use`. The later tracks' indexes go down by one.
 */
export async function removeTrack(
  deps: EventDeps,
  p: KeyPrincipal,
  id: string,
  index: number,
): Promise<EventRow> {
  const row = await loadOwnedEvent(deps.db, p, id);
  if (!row.tracks[index])
    throw notFound(`no track at index ${index}; this event has ${row.tracks.length}`, 'track_not_found');
  const removed = await deps.db.transaction().execute(async (trx) => {
    // The event's counters first, as every claim takes them: a booking being confirmed meanwhile waits.
    await lockSeatCounters(trx, id);
    if ((await deps.bookings.tracksInUseFrom(id, index)) || (await deps.seats.onTracksFrom(id, index))) {
      const later = index < row.tracks.length - 1;
      throw conflict(
        'track_in_use',
        later
          ? 'this track or a later one has bookings, a waitlist, or seats held or kept back: a track can be removed only while nobody has booked it or a later track (their numbers would change)'
          : 'this track has bookings, a waitlist (cancelled ones count too), or seats held or kept back: a track can be removed only while nobody has booked it',
      );
    }
    const u = await repo.removeTrack(trx, id, index, deps.clock.now());
    if (u) {
      await dropTrackCountersFrom(trx, id, u.tracks.length);
      await syncSeatCounters(trx, id, u, (t) => deps.waitlist.seatsFreed(t, id));
      await audit.recordChange(trx, deps, {
        accountId: row.account_id,
        mode: row.mode,
        actor: audit.actorOfKey(p),
        action: 'track.delete',
        target: { type: 'track', id: `${id}/${index}` },
        before: { ...row.tracks[index]! },
      });
    }
    return u;
  });
  if (!removed) throw notFound(`no track at index ${index}`, 'track_not_found');
  if (plansNamed(fieldsOf(row)).length === 0) return removed;
  await refitToPlan(deps, row);
  return (await repo.findEvent(deps.db, id))!;
}
