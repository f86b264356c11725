// The event a booking is for, read together with the others asked for at the same time.
// Every booking reads its event (and the seats its counter says are taken) before it is
// written; under traffic spread over many events each read is a round trip of its own. Here,
// in each service process, a read that finds none in flight goes at once, alone; reads asked
// for while one is in flight wait for it and then go together, in one statement. Nothing
// waits on a timer, and every read starts after it was asked for, so it sees every change
// committed before its request arrived.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import * as repo from './events.repo.js';

export type EventWithTaken = repo.EventRow & { seats_taken: number | null };

/** Most events one read carries. */
export const MAX_READ = 128;

interface Asked {
  id: string;
  settle(result: { ok: true; row: EventWithTaken | undefined } | { ok: false; error: unknown }): void;
}

export class EventReads {
  readonly #db: Kysely<Database>;
  /** Reads asked for while one is in flight (present while one is). */
  #queue: Asked[] | undefined;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** The event and the seats taken on its own counter; undefined when there is no such event. */
  read(id: string): Promise<EventWithTaken | undefined> {
    return new Promise((resolve, reject) => {
      const asked: Asked = { id, settle: (r) => (r.ok ? resolve(r.row) : reject(r.error)) };
      if (this.#queue) {
        this.#queue.push(asked);
        return;
      }
      this.#queue = [];
      void this.#drain([asked]);
    });
  }

  async #drain(group: Asked[]): Promise<void> {
    for (;;) {
      try {
        const rows = await repo.findEventsWithTaken(this.#db, [...new Set(group.map((a) => a.id))]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const a of group) a.settle({ ok: true, row: byId.get(a.id) });
      } catch (error) {
        for (const a of group) a.settle({ ok: false, error });
      }
      const queue = this.#queue!;
      if (queue.length === 0) {
        this.#queue = undefined;
        return;
      }
      group = queue.splice(0, MAX_READ);
    }
  }
}
