// A whole read of an event's door roster, taken in slice by slice (rosters.ts decides when): the
// event's people are fetched in pages, all in one snapshot (roster.repo.ts), and each page taken
// in as one slice, or several when it would hold the event loop longer than SLICE_MS, with the
// event loop let run between slices. The rows go into a store of their own, which becomes the
// roster's only once complete (EventRoster.finishWhole): a roster being built answers nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { readRosterPages, type RosterHead, type RosterPersonRow } from './roster.repo.js';
import { Store, type RosterBooking } from './roster-store.js';

/** How long a slice may hold the event loop, give or take a few rows. */
const SLICE_MS = 10;
/** Rows taken in between two looks at the clock. */
const SLICE_STEP = 64;

const xidOf = (text: string | null) => (text === null ? 0 : Number(text));

/** Rows of one booking after another (a booking's people together, by index) as bookings read at `version`. */
export class Grouper {
  #current: RosterBooking | undefined;

  constructor(
    readonly version: number,
    readonly take: (b: RosterBooking) => void,
  ) {}

  add(rows: readonly RosterPersonRow[], from = 0, to = rows.length): void {
    for (let i = from; i < to; i++) {
      const r = rows[i]!;
      if (this.#current?.id !== r.registration_id) {
        if (this.#current) this.take(this.#current);
        this.#current = {
          id: r.registration_id,
          status: r.status,
          ticketType: r.ticket_type,
          subEventId: r.sub_event_id,
          ticketCode: r.ticket_code,
          previousCodes: r.previous_ticket_codes ?? [],
          xid: xidOf(r.r_xid),
          people: [],
          v: this.version,
        };
      }
      this.#current.people.push({ id: r.attendee_id, idx: r.idx, name: r.name, email: r.email, checkedInAt: r.checked_in_at, checkedInBy: r.checked_in_by, xid: xidOf(r.a_xid) });
    }
  }

  end(): void {
    if (this.#current) this.take(this.#current);
    this.#current = undefined;
  }
}

/**
 * A whole read being taken in, slice by slice, into a store of its own; the roster answers from
 * its old store (or nothing) until `EventRoster.finishWhole` puts this one in its place.
 */
export class RosterBuild {
  readonly #store: Store;
  readonly #rows: Grouper;

  constructor(readonly head: RosterHead) {
    this.#store = new Store(head.bookings, head.people);
    this.#rows = new Grouper(head.version, (b) => this.#store.add(b));
  }

  /** People taken in so far. */
  get people(): number {
    return this.#store.people;
  }

  /** Rows `from` to `to` of a page of the read, in its order (a booking's people may go on in the next). */
  add(rows: readonly RosterPersonRow[], from = 0, to = rows.length): void {
    this.#rows.add(rows, from, to);
  }

  done(): Store {
    this.#rows.end();
    this.#store.text.trim();
    return this.#store;
  }
}

export interface WholeRead {
  pageRows: number;
  /** Lets the event loop run between two slices. */
  betweenSlices(): Promise<void>;
  /** Whether the read is still wanted (checked after each slice). */
  held(): boolean;
  /** Whether to read on, once the event's head is known (its size among it). */
  start(head: RosterHead): boolean;
}

/** The event's roster read whole, complete; undefined when `start` or `held` stopped it. */
export async function readWhole(db: Kysely<Database>, eventId: string, o: WholeRead): Promise<RosterBuild | undefined> {
  let build: RosterBuild | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    return false;
  };
  await readRosterPages(db, eventId, o.pageRows, {
    head: (head) => {
      if (!o.start(head)) return stop();
      build = new RosterBuild(head);
      return true;
    },
    page: async (rows) => {
      for (let i = 0; i < rows.length; ) {
        const started = performance.now();
        do {
          const to = Math.min(i + SLICE_STEP, rows.length);
          build!.add(rows, i, to);
          i = to;
        } while (i < rows.length && performance.now() - started < SLICE_MS);
        await o.betweenSlices();
        if (!o.held()) return stop();
      }
      return true;
    },
  });
  return stopped ? undefined : build;
}
