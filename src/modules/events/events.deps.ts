// What the events module needs from the service around it: storage, clock and ids, and what
// the bookings and waitlist modules answer about an event.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { KeptSeats } from './seated-event.js';
import type { ReadPool } from '../../db/read-pool.js';

/** Bookings by status on one event, for its analytics. */
export interface BookingCounts {
  total: number;
  confirmed: number;
  pending: number;
  cancelled: number;
  refunded: number;
  checkedIn: number;
  revenuePaise: number;
}

export interface EventDeps {
  db: Kysely<Database>;
  /** Where the analytics report reads (src/db/read-pool.ts): a replica, or the primary. */
  reads: ReadPool;
  clock: Clock;
  ids: Ids;
  /** What the bookings module answers about an event's bookings. */
  bookings: {
    /**
     * How many bookings hold money not yet settled: a payment in flight (pending with an
     * order), captured and kept (confirmed paid), or captured and not yet refunded.
     */
    paymentsInFlight(eventId: string): Promise<number>;
    /** Refunds (or ends) every such booking through the usual paths; how many still hold money after. */
    settlePayments(eventId: string): Promise<number>;
    /** Counted on `from` (the read pool, for the analytics report), else on the primary. */
    counts(eventId: string, from?: Kysely<Database>): Promise<BookingCounts>;
    /** Whether any booking or waitlist entry names track `index` or a later one (their indexes must then stay). */
    tracksInUseFrom(eventId: string, index: number): Promise<boolean>;
  };
  /** What the seat-holds module answers about a seated event's seats. */
  seats: {
    /** The house seats an event keeps back from sale, by sitting and category (they are not in its capacities). */
    kept(eventId: string): Promise<KeptSeats>;
    /** The sittings (-1 the event's plan, else a track's index) with a seat booked or held (not lapsed): their plans cannot change then. */
    inUse(eventId: string): Promise<Set<number>>;
    /** Whether a seat of track `index` or a later one is booked, held or kept back (their indexes must then stay). */
    onTracksFrom(eventId: string, index: number): Promise<boolean>;
  };
  /** Whether the account may publish live events (test events need no grant). */
  canPublish(userId: string): Promise<boolean>;
  /** Whether the service can take live payments (its gateway keys are set): a paid live event is published only then. */
  livePayments: boolean;
  /** What the waitlist module answers and does about an event's seats. */
  waitlist: {
    /**
     * Seats may have come free (a capacity changed): offer them to whoever waits, in the
     * caller's transaction, which holds the event's seat counters.
     */
    seatsFreed(trx: Transaction<Database>, eventId: string): Promise<void>;
    /** How many people wait for this event (or one of its tracks). */
    waitingCount(eventId: string, trackIndex: number | undefined): Promise<number>;
  };
}
