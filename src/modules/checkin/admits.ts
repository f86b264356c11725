// Admits written together (docs/decisions/15-the-door.md, docs/decisions/22-figures-and-evidence.md, speed). An admit is a conditional UPDATE that
// waits for its commit to be on disk, and the event's version row is locked until then; so in
// each service process, an event's admit with no statement in flight is written at once,
// alone, and the admits that arrive while one is in flight (the few milliseconds of a
// statement and its commit) go together in the next statement, one commit for all. The next
// statement is sent as soon as the last one's answer arrives, before its callers are answered,
// so the database writes one group while the process answers the other. (More statements of
// one event in flight only queue on the version row and split the groups: measured, it was
// slower.) Nothing waits on a timer. Each scan in a group is its own conditional update, so a
// refused or repeated ticket changes nothing for the others, and each caller gets its own
// rows; if the statement itself fails, each scan is written again alone. A caller is answered
// only after the commit: an acknowledged admit is durable.
import type { Kysely } from 'kysely';
import { Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { admitGroup, type AdmitItem, type GroupRow } from './checkin.repo.js';
import type { DoorRosters } from './rosters.js';
import type { RosterChange } from './roster.js';

/** Most scans one statement carries. */
export const MAX_ADMIT_GROUP = 128;

interface Waiting {
  item: AdmitItem;
  settle(result: { ok: true; rows: GroupRow[] } | { ok: false; error: unknown }): void;
}

export class AdmitGroups {
  readonly #db: Kysely<Database>;
  readonly #rosters: DoorRosters;
  readonly #size: Histogram;
  /** Per event: the admits waiting for the statement in flight (present while one is). */
  readonly #queues = new Map<string, Waiting[]>();

  constructor(deps: { db: Kysely<Database>; rosters: DoorRosters; registry?: Registry }) {
    this.#db = deps.db;
    this.#rosters = deps.rosters;
    this.#size = new Histogram({
      name: 'door_admit_group_size',
      help: 'Admits written by one statement (group commit)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers: deps.registry ? [deps.registry] : [],
    });
  }

  /** The scanned booking's people as this admit left them (none when the value is no person's id). */
  admit(eventId: string, item: AdmitItem): Promise<GroupRow[]> {
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { item, settle: (r) => (r.ok ? resolve(r.rows) : reject(r.error)) };
      const queue = this.#queues.get(eventId);
      if (queue) {
        queue.push(waiting);
        return;
      }
      this.#queues.set(eventId, []);
      void this.#drain(eventId, [waiting]);
    });
  }

  async #drain(eventId: string, group: Waiting[]): Promise<void> {
    let written = this.#write(eventId, group);
    for (;;) {
      const answer = await written;
      // The next statement starts before this group is answered: the database writes it
      // while this process answers the last one.
      const queue = this.#queues.get(eventId)!;
      const more = queue.length > 0;
      if (more) written = this.#write(eventId, queue.splice(0, MAX_ADMIT_GROUP));
      else this.#queues.delete(eventId);
      answer();
      if (!more) return;
    }
  }

  /** Writes the group; resolves (never rejects) to what answers its callers. */
  async #write(eventId: string, group: Waiting[]): Promise<() => void> {
    this.#rosters.writing(eventId, 1);
    try {
      return await this.#statements(eventId, group);
    } catch (error) {
      // #statements answers every admit itself; should anything still escape, nobody is left waiting.
      return () => group.forEach((w) => w.settle({ ok: false, error }));
    } finally {
      this.#rosters.writing(eventId, -1);
    }
  }

  async #statements(eventId: string, group: Waiting[]): Promise<() => void> {
    this.#size.observe(group.length);
    if (group.length > 1) {
      let rows: GroupRow[] | undefined;
      try {
        rows = (
          await admitGroup(
            this.#db,
            eventId,
            group.map((w) => w.item),
          )
        ).rows;
      } catch {
        // the statement failed as a whole: each admit alone gets its own answer
      }
      if (rows) {
        this.#remember(eventId, rows);
        const byScan = new Map<number, GroupRow[]>();
        for (const r of rows) {
          const n = Number(r.n);
          const mine = byScan.get(n);
          if (mine) mine.push(r);
          else byScan.set(n, [r]);
        }
        return () => group.forEach((w, i) => w.settle({ ok: true, rows: byScan.get(i + 1) ?? [] }));
      }
    }
    const answers: (() => void)[] = [];
    for (const w of group) {
      try {
        const rows = (await admitGroup(this.#db, eventId, [w.item])).rows;
        this.#remember(eventId, rows);
        answers.push(() => w.settle({ ok: true, rows }));
      } catch (error) {
        answers.push(() => w.settle({ ok: false, error }));
      }
    }
    return () => answers.forEach((a) => a());
  }

  /** This instance's roster takes its own admits in before anyone is answered. */
  #remember(eventId: string, rows: readonly GroupRow[]): void {
    const head = rows.find((r) => r.door_version !== null);
    if (!head) return;
    const changes: RosterChange[] = rows
      .filter((r) => r.p_changed_n !== null)
      .map((r) => ({ registrationId: r.id, idx: r.p_idx, at: r.p_changed_at, by: r.p_changed_by }));
    this.#rosters.wrote(eventId, Number(head.door_version), Number(head.door_xid), changes);
  }
}
