// Room on an event seated track by track (docs/decisions/23-reserved-seating.md, "Tracks with
// plans"). The seat counters keep the event's, each tier's (over every session) and each track's
// room, but none per session and category: "Gold in the evening" may be sold out while Gold has
// room in the matinee. For such an event the waitlist reads that room from the seats themselves:
// the session's seats of the category that no booking has, less the offers open for it (each
// holds a seat on the counters, not yet in the seats). Like the counters, it leaves a buyer's hold
// out: a seat only held is room. An entry for the whole event, or on an event seated from its own
// plan (whose tiers are its categories), needs no more than the counters.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import * as events from '../events/events.service.js';
import { freeSeatsByCategory } from '../seat-holds/event-seats.service.js';
import * as repo from './waitlist.repo.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SeatedRoom {
  /** Whether a seat of `ticketType` on track `track` is for sale (always, where the counters decide alone). */
  has(track: number | null, ticketType: string): Promise<boolean>;
  /** One such seat is offered: it leaves the room. */
  take(track: number | null, ticketType: string): void;
}

export function seatedRoom(db: Db, event: events.EventRow, now: Date): SeatedRoom {
  const byTrack = event.seating_plan_id === null && events.isSeated(event);
  const free = new Map<number, Map<string, number>>();
  let offered: Map<string, number> | undefined;
  async function left(track: number): Promise<Map<string, number>> {
    let room = free.get(track);
    if (!room) {
      room = await freeSeatsByCategory(db, event, track, now);
      offered ??= await repo.offeredBy(db, event.id);
      for (const [name, n] of room) room.set(name, n - (offered.get(`${track}|${name}`) ?? 0));
      free.set(track, room);
    }
    return room;
  }
  return {
    async has(track, ticketType) {
      if (!byTrack || track === null) return true;
      return ((await left(track)).get(ticketType) ?? 0) > 0;
    },
    take(track, ticketType) {
      const room = track === null ? undefined : free.get(track);
      if (room?.has(ticketType)) room.set(ticketType, room.get(ticketType)! - 1);
    },
  };
}
