// Free bookings of one seat counter, written together. Every free booking of a counter
// takes that counter's row lock until its commit is on disk, so bookings of one hot event
// go one commit at a time however many connections wait. Here, in each service process,
// a booking of a counter with no statement in flight is written at once, alone; bookings
// that arrive while one is in flight wait for it and are then written together, in one
// statement and one commit. Nothing waits on a timer: a lone booking pays nothing, and
// under a rush each commit carries everything that queued behind the one before.
//
// A group is all or nothing (free-booking.repo.ts). When it cannot be written whole (the
// counter has not room for all of it, or any row is refused), each of its bookings is
// written again alone, so each gets the answer it would have had on its own.
import type { Clock } from '../../shared/clock.js';
import { batchKey, bookFreeTogether, type FreeBooking } from './free-booking.repo.js';
import type { Db } from './registrations.repo.js';

/** Most bookings one statement carries. */
export const MAX_GROUP = 64;

interface Waiting {
  booking: FreeBooking;
  settle(result: { ok: true; written: boolean } | { ok: false; error: unknown }): void;
}

export class FreeBookings {
  readonly #db: Db;
  readonly #clock: Clock;
  /** Per counter: the bookings waiting for the statement in flight (present while one is). */
  readonly #queues = new Map<string, Waiting[]>();

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Writes a free booking; false when its counter has no room for it (nothing written). */
  book(booking: FreeBooking): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { booking, settle: (r) => (r.ok ? resolve(r.written) : reject(r.error)) };
      const key = batchKey(booking);
      const queue = this.#queues.get(key);
      if (queue) {
        queue.push(waiting);
        return;
      }
      this.#queues.set(key, []);
      void this.#drain(key, [waiting]);
    });
  }

  async #drain(key: string, group: Waiting[]): Promise<void> {
    for (;;) {
      try {
        await this.#write(group);
      } catch (error) {
        // #write answers every booking itself; should anything still escape, no booking is left waiting.
        for (const w of group) w.settle({ ok: false, error });
      }
      const queue = this.#queues.get(key)!;
      if (queue.length === 0) {
        this.#queues.delete(key);
        return;
      }
      group = queue.splice(0, MAX_GROUP);
    }
  }

  async #write(group: Waiting[]): Promise<void> {
    const now = this.#clock.now();
    if (group.length > 1) {
      try {
        if (await bookFreeTogether(this.#db, group.map((w) => w.booking), now)) {
          for (const w of group) w.settle({ ok: true, written: true });
          return;
        }
      } catch {
        // some row was refused: each booking alone gets its own answer
      }
    }
    // Alone (in order, so the first come are the first served when seats run out).
    for (const w of group) {
      try {
        w.settle({ ok: true, written: await bookFreeTogether(this.#db, [w.booking], now) });
      } catch (error) {
        w.settle({ ok: false, error });
      }
    }
  }
}
