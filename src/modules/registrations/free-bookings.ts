// Free bookings, written together. Every free booking takes its seat counter's row lock
// until its commit is on disk, and every commit is a flush, so bookings written one by one
// pay a statement, a lock and a flush each: a hot event goes one commit at a time however
// many connections wait, and traffic spread over many events pays a commit per booking.
// Here, in each service process, a booking that finds no statement in flight is written at
// once, alone; bookings that arrive while one is in flight wait for it and are then written
// together, whatever their events, in one statement and one commit (each claims its own
// counter). The next statement is sent as soon as the last one's answer arrives, before its
// bookings are answered, so the database writes one group while the process answers the
// other. Nothing waits on a timer: a lone booking pays nothing, and under a rush each commit
// carries everything that queued behind the one before.
//
// A group fails per booking, never as a whole (free-booking.repo.ts): a counter without
// room refuses its own bookings from the first that does not fit, in order, and the others
// of the statement are written. A booking refused that way behind a larger one refused on the
// same counter may still fit alone, and is tried again. When the
// database refuses the statement (a row it will not take), the group is split in halves,
// each written on its own, down to the one booking at fault; so each booking gets the answer
// it would have had alone.
import type { Clock } from '../../lib/clock.js';
import { bookFreeTogether, counterKey, type FreeBooking } from './lifecycle/free-booking.repo.js';
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
  /** The bookings waiting for the statement in flight (present while one is). */
  #queue: Waiting[] | undefined;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Writes a free booking; false when its counter has no room for it (nothing written). */
  book(booking: FreeBooking): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { booking, settle: (r) => (r.ok ? resolve(r.written) : reject(r.error)) };
      if (this.#queue) {
        this.#queue.push(waiting);
        return;
      }
      this.#queue = [];
      void this.#drain([waiting]);
    });
  }

  async #drain(group: Waiting[]): Promise<void> {
    let written = this.#answered(group);
    for (;;) {
      const answer = await written;
      // The next statement starts before this group is answered: the database writes it
      // while this process answers the last one.
      const queue = this.#queue!;
      const more = queue.length > 0;
      if (more) written = this.#answered(queue.splice(0, MAX_GROUP));
      else this.#queue = undefined;
      answer();
      if (!more) return;
    }
  }

  /** Writes the group; resolves (never rejects) to what answers its bookings. */
  async #answered(group: Waiting[]): Promise<() => void> {
    const answers = new Map<Waiting, () => void>();
    try {
      await this.#write(group, answers);
    } catch (error) {
      // #write gives every booking its answer; should anything still escape, no booking is left waiting.
      return () => group.forEach((w) => (answers.get(w) ?? (() => w.settle({ ok: false, error })))());
    }
    return () => answers.forEach((a) => a());
  }

  /** Writes the group, putting each booking's answer in `answers`. */
  async #write(group: Waiting[], answers: Map<Waiting, () => void>): Promise<void> {
    let written: Set<string>;
    try {
      written = await bookFreeTogether(
        this.#db,
        group.map((w) => w.booking),
        this.#clock.now(),
      );
    } catch (error) {
      if (group.length === 1) {
        answers.set(group[0]!, () => group[0]!.settle({ ok: false, error }));
        return;
      }
      // Some row was refused: each half on its own (in order, so the first come are the first served).
      const half = Math.ceil(group.length / 2);
      await this.#write(group.slice(0, half), answers);
      await this.#write(group.slice(half), answers);
      return;
    }
    // Per counter, the first booking refused had no room; a later one asking fewer seats than
    // that one may still fit, and is tried again (those asking as many or more cannot).
    const firstRefused = new Map<string, number>();
    const again: Waiting[] = [];
    for (const w of group) {
      if (written.has(w.booking.row.id)) {
        answers.set(w, () => w.settle({ ok: true, written: true }));
        continue;
      }
      const key = counterKey(w.booking);
      const first = firstRefused.get(key);
      if (first === undefined) firstRefused.set(key, w.booking.row.quantity);
      if (first !== undefined && w.booking.row.quantity < first) again.push(w);
      else answers.set(w, () => w.settle({ ok: true, written: false }));
    }
    if (again.length > 0) await this.#write(again, answers);
  }
}
