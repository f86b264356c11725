// Admits written together (decisions §15, speed). An admit is a conditional UPDATE that waits
// for its commit to be on disk, and the event's version row is locked until then; so in each
// service process, an event's admit with no statement in flight is written at once, alone,
// and the admits that arrive while one is in flight (the few milliseconds of a statement and
// its commit) wait for it and then go together in the next statement, one commit for all.
// Nothing waits on a timer. Each scan in a group is its own conditional update, so a refused
// or repeated ticket changes nothing for the others, and each caller gets its own rows; if
// the statement itself fails, each scan is written again alone. A caller is answered only
// after the commit: an acknowledged admit is durable.
import type { Kysely } from 'kysely';
import { Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { admitGroup, type AdmitItem, type GroupRow } from './checkin.repo.js';
import type { DoorRosters, RosterChange } from './rosters.js';

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
    for (;;) {
      try {
        await this.#write(eventId, group);
      } catch (error) {
        // #write answers every admit itself; should anything still escape, nobody is left waiting.
        for (const w of group) w.settle({ ok: false, error });
      }
      const queue = this.#queues.get(eventId)!;
      if (queue.length === 0) {
        this.#queues.delete(eventId);
        return;
      }
      group = queue.splice(0, MAX_ADMIT_GROUP);
    }
  }

  async #write(eventId: string, group: Waiting[]): Promise<void> {
    this.#size.observe(group.length);
    if (group.length > 1) {
      let rows: GroupRow[] | undefined;
      try {
        rows = (await admitGroup(this.#db, eventId, group.map((w) => w.item))).rows;
      } catch {
        // the statement failed as a whole: each admit alone gets its own answer
      }
      if (rows) {
        this.#remember(eventId, rows);
        const byScan = new Map<number, GroupRow[]>();
        for (const r of rows) {
          const n = Number(r.n);
          byScan.set(n, [...(byScan.get(n) ?? []), r]);
        }
        group.forEach((w, i) => w.settle({ ok: true, rows: byScan.get(i + 1) ?? [] }));
        return;
      }
    }
    for (const w of group) {
      try {
        const rows = (await admitGroup(this.#db, eventId, [w.item])).rows;
        this.#remember(eventId, rows);
        w.settle({ ok: true, rows });
      } catch (error) {
        w.settle({ ok: false, error });
      }
    }
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
