// Tracks of an event (sessions with their own price and capacity): adding and changing
// one, with the event's seat counters kept in step.
import type { KeyPrincipal } from '../../shared/auth.js';
import * as audit from '../audit/audit.service.js';
import { notFound } from '../../shared/errors.js';
import { validateTrack, type TrackInput } from './events.input.js';
import * as repo from './events.repo.js';
import type { EventRow } from './events.repo.js';
import { syncSeatCounters } from './seats.service.js';
import { loadOwnedEvent, type EventDeps } from './events.service.js';

export async function addTrack(deps: EventDeps, p: KeyPrincipal, id: string, input: TrackInput): Promise<{ index: number; row: EventRow }> {
  const event = await loadOwnedEvent(deps.db, p, id);
  const track = validateTrack(input, '');
  const index = await deps.db.transaction().execute(async (trx) => {
    const i = await repo.appendTrack(trx, id, track, deps.clock.now());
    if (i !== undefined) {
      await syncSeatCounters(trx, id, (await repo.findEvent(trx, id))!, (t) => deps.waitlist.seatsFreed(t, id));
      await audit.recordChange(trx, deps, { accountId: event.account_id, mode: event.mode, actor: audit.actorOfKey(p), action: 'track.create', target: { type: 'track', id: `${id}/${i}` }, after: { ...track } });
    }
    return i;
  });
  if (index === undefined) throw notFound('no such event', 'event_not_found');
  return { index, row: (await repo.findEvent(deps.db, id))! };
}

export async function patchTrack(deps: EventDeps, p: KeyPrincipal, id: string, index: number, input: TrackInput): Promise<EventRow> {
  const row = await loadOwnedEvent(deps.db, p, id);
  const current = row.tracks[index];
  if (!current) throw notFound(`no track at index ${index}; this event has ${row.tracks.length}`, 'track_not_found');
  const track = validateTrack(input, '', current);
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.replaceTrack(trx, id, index, track, deps.clock.now());
    if (u) {
      await syncSeatCounters(trx, id, u, (t) => deps.waitlist.seatsFreed(t, id));
      await audit.recordChange(trx, deps, { accountId: row.account_id, mode: row.mode, actor: audit.actorOfKey(p), action: 'track.update', target: { type: 'track', id: `${id}/${index}` }, ...audit.changedFields({ ...current }, { ...track }) });
    }
    return u;
  });
  if (!updated) throw notFound(`no track at index ${index}`, 'track_not_found');
  return updated;
}
