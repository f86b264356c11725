// What the seat-holds module needs from the service (docs/decisions/23-reserved-seating.md).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { EventDeps } from '../events/events.service.js';
import type { SeatStatuses } from './status-memory.js';

export interface SeatHoldsDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: { seatHoldMinutes: number; heldSeatsPerAddress: number };
  /** This instance's memory of events' seat statuses (status-memory.ts). */
  seatStatuses: SeatStatuses;
  /** The events module's, to refit an event whose house seats changed. */
  eventDeps: EventDeps;
}
