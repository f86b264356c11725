// A whole read of an event's door roster (rosters.ts decides when). It runs in a worker thread
// (roster-worker.ts) with a connection of its own: the event's people are fetched in pages, all
// in one snapshot (roster.repo.ts), and taken into a store of their own, so neither the rows'
// parsing nor their garbage touches the thread that answers requests. After each page the worker
// waits for this thread's word to go on (`between`, then `held`); once complete, it hands the
// store over (its buffers moved, not copied), and the store becomes the roster's
// (EventRoster.finishWhole): a roster being built answers nothing meanwhile.
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import type { RosterHead, RosterPersonRow } from './roster.repo.js';
import { storeFrom, type StoreParts } from './roster-parts.js';
import { Store, type RosterBooking } from './roster-store.js';

/** A whole read, complete: the event as read, and its bookings. */
export interface WholeRead {
  head: RosterHead;
  store: Store;
}

/** Rows of one booking after another (a booking's people together, by index) as bookings read at `version`. */
export class Grouper {
  #current: RosterBooking | undefined;

  constructor(
    readonly version: number,
    readonly take: (b: RosterBooking) => void,
  ) {}

  add(rows: readonly RosterPersonRow[]): void {
    for (const r of rows) {
      if (this.#current?.id !== r.registration_id) {
        if (this.#current) this.take(this.#current);
        this.#current = {
          id: r.registration_id,
          status: r.status,
          ticketType: r.ticket_type,
          subEventId: r.sub_event_id,
          ticketCode: r.ticket_code,
          previousCodes: r.previous_ticket_codes ?? [],
          xid: r.r_xid ?? 0,
          people: [],
          v: this.version,
        };
      }
      this.#current.people.push({
        id: r.attendee_id ?? r.registration_id,
        idx: r.idx,
        name: r.name,
        email: r.email,
        checkedInAt: r.checked_in_at,
        checkedInBy: r.checked_in_by,
        seat: r.seat,
        xid: r.a_xid ?? 0,
      });
    }
  }

  end(): void {
    if (this.#current) this.take(this.#current);
    this.#current = undefined;
  }
}

/**
 * A whole read being taken in, page by page, into a store of its own; the roster answers from
 * its old store (or nothing) until `EventRoster.finishWhole` puts this one in its place.
 */
export class RosterBuild {
  readonly #store: Store;
  readonly #rows: Grouper;

  constructor(readonly head: RosterHead) {
    this.#store = new Store(head.bookings, head.people);
    this.#rows = new Grouper(head.version, (b) => this.#store.add(b));
  }

  /** A page of the read's rows, in its order (a booking's people may go on in the next page). */
  add(rows: readonly RosterPersonRow[]): void {
    this.#rows.add(rows);
  }

  done(): WholeRead {
    this.#rows.end();
    this.#store.text.trim();
    return { head: this.head, store: this.#store };
  }
}

/** What the worker is given. */
export interface WorkerInput {
  connection: pg.ClientConfig;
  eventId: string;
  pageRows: number;
}

/** What the worker says: the head (answer whether to read on), a page taken in (answer whether to go on), the end. */
export type WorkerMessage =
  | { kind: 'head'; head: RosterHead }
  | { kind: 'page' }
  | { kind: 'done'; head: RosterHead; parts: StoreParts }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string };

export interface WholeReadOptions {
  connection: pg.ClientConfig;
  pageRows: number;
  /** Runs after each page before the worker goes on (the event loop's turn; tests hold the read here). */
  between(): Promise<void>;
  /** Whether the read is still wanted. */
  held(): boolean;
  /** Whether to read on, once the event's head is known (its size among it). */
  start(head: RosterHead): boolean;
}

// Under tsx (development, tests) the worker runs from its TypeScript source.
const WORKER = new URL(
  import.meta.url.endsWith('.ts') ? './roster-worker.ts' : './roster-worker.js',
  import.meta.url,
);

/** The event's roster read whole in a worker thread; undefined when `start` or `held` stopped it. */
export function readWhole(eventId: string, o: WholeReadOptions): Promise<WholeRead | undefined> {
  const input: WorkerInput = { connection: o.connection, eventId, pageRows: o.pageRows };
  const worker = new Worker(WORKER, { workerData: input });
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (!settled) f();
      settled = true;
    };
    // A worker left waiting would hold its transaction open: one that failed is ended.
    const fail = (err: unknown) =>
      settle(() => {
        reject(err);
        void worker.terminate();
      });
    worker.on('message', (m: WorkerMessage) => {
      try {
        if (m.kind === 'head') worker.postMessage(o.start(m.head) && o.held());
        else if (m.kind === 'page') void o.between().then(() => worker.postMessage(o.held()), fail);
        else if (m.kind === 'done') settle(() => resolve({ head: m.head, store: storeFrom(m.parts) }));
        else if (m.kind === 'stopped') settle(() => resolve(undefined));
        else fail(new Error(m.message));
      } catch (err) {
        fail(err);
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the roster worker exited (${code}) before it was done`)));
  });
}
