// This instance's door rosters, one per event, kept current (docs/decisions/15-the-door.md, speed).
//
// A roster is built on the first scan of its event after the caller proved it may work that
// door, and answers only while it is known current: built, vouched for by the listener (which
// has heard every notification since), and no change known that it has not read. Otherwise
// the caller asks the database, and a read is started. Changes are known from three places:
// the `door` notifications (door-listener.ts), this instance's own writes (the NOTICE a
// write's commit sends its session, and the version the door's own statements return), and
// the listener's version checks, which find the notifications it missed. A change read is a
// delta (the bookings written since the last read's snapshot); a missed one is a whole read.
//
// A whole read (the build, and a rebuild after a missed notification) runs in a worker thread,
// page by page (roster-build.ts), so the thread answering requests never holds on it: other
// requests go on meanwhile, the event's own answered by the database, since the roster is not
// current until complete. Its snapshot is the cursor, so the delta read after it brings in what
// changed during the build. One whole read per event at a time.
//
// Memory is bounded: the people of every roster held together stay within `maxPeople`
// (DOOR_ROSTER_MAX_PEOPLE); past it, the rosters asked for least recently are dropped (their
// doors ask the database until their next scan builds them again). A roster larger than the
// bound alone is not built (its size is read first), and not tried again until it has been
// idle for a while.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { EventRoster, leastRecentlyUsed, type RosterChange } from './roster.js';
import { rosterMetrics } from './roster-metrics.js';
import { readWhole } from './roster-build.js';
import { readRoster, watch } from './roster.repo.js';

/** A roster nobody asked for in this long is dropped. */
const IDLE_MS = 15 * 60_000;

export type RefreshCause = 'build' | 'change' | 'version';

export class DoorRosters {
  /** The pool, the database as a connection of its own (a whole read's worker opens one), the log. */
  readonly #deps: { db: Kysely<Database>; connection: pg.ClientConfig; logger: Logger };
  readonly #rosters = new Map<string, EventRoster>();
  readonly #reads = new Set<Promise<void>>();
  readonly metrics: ReturnType<typeof rosterMetrics>;
  /** People all rosters held may have together (DOOR_ROSTER_MAX_PEOPLE; set by the composition root). */
  maxPeople = Number.POSITIVE_INFINITY;
  /** People a whole read fetches per page. */
  pageRows = 2_000;
  /** Runs after each page of a whole read before its worker goes on (tests hold a build here). */
  betweenPages: (eventId: string) => Promise<void> = () => new Promise((resolve) => setImmediate(resolve));
  /** Events whose whole read is under way (one at a time per event, even for a roster just dropped). */
  readonly #wholeReads = new Set<string>();
  /** People in each roster held, as of its last read. */
  readonly #people = new Map<string, number>();
  #totalPeople = 0;
  /** Events whose roster alone was over the bound, and when: not built again while they stay asked for. */
  readonly #tooLarge = new Map<string, number>();
  #listening = false;
  /** Events with this instance's door statements in flight, and how many (`writing`). */
  readonly #writing = new Map<string, number>();
  /** Who waits for LISTEN to be on (`whenListening`). */
  #listeningWaiters: (() => void)[] = [];
  #closed = false;

  constructor(deps: {
    db: Kysely<Database>;
    connection: pg.ClientConfig;
    logger: Logger;
    registry?: Registry;
  }) {
    this.#deps = deps;
    this.metrics = rosterMetrics(deps.registry);
  }

  /** The event's roster, when it is known current; undefined sends the caller to the database. */
  current(eventId: string): EventRoster | undefined {
    const r = this.#rosters.get(eventId);
    if (!r) return undefined;
    r.lastUsed = performance.now();
    if (r.current) return r;
    if (r.trusted) this.#refresh(r, 'change');
    return undefined;
  }

  /** Counts who answered a lookup or refusal. */
  answered(from: 'roster' | 'database'): void {
    this.metrics.lookups.inc({ from });
  }

  /**
   * Starts building the event's roster, once a scan of its door has been answered (the caller
   * proved it may work that door). Marking the event watched is awaited, so it is part of the
   * answered request rather than a write landing later; the read runs on its own.
   */
  async warm(eventId: string): Promise<void> {
    if (this.#closed || !this.#listening || this.#rosters.has(eventId) || this.#wholeReads.has(eventId))
      return;
    const tooLarge = this.#tooLarge.get(eventId);
    if (tooLarge !== undefined) {
      if (performance.now() - tooLarge < IDLE_MS) return;
      this.#tooLarge.delete(eventId);
    }
    const r = new EventRoster(eventId);
    r.lastUsed = performance.now();
    this.#rosters.set(eventId, r);
    this.metrics.rosters.set(this.#rosters.size);
    // No read may start before the event is watched.
    r.refreshing = true;
    try {
      await watch(this.#deps.db, eventId);
    } catch (err) {
      this.#deps.logger.warn(
        { err, eventId },
        'door roster could not be started; the door asks the database',
      );
      this.deleted(eventId);
      return;
    } finally {
      r.refreshing = false;
    }
    this.#refresh(r, 'build');
  }

  // ------------------------------------------------------------ what the listener says

  /** LISTEN is on (every roster built from now on hears every change), or off (no roster can be vouched for). */
  listening(on: boolean): void {
    this.#listening = on;
    if (on) {
      this.metrics.connects.inc();
      for (const resolve of this.#listeningWaiters.splice(0)) resolve();
    } else for (const r of this.#rosters.values()) r.trusted = false;
  }

  /** Resolves once LISTEN is on (at once when it is): from then on a scan builds its event's roster. */
  whenListening(): Promise<void> {
    if (this.#listening) return Promise.resolve();
    return new Promise((resolve) => this.#listeningWaiters.push(resolve));
  }

  /**
   * A change committed as `version`: a notification (read it now), or the NOTICE of this
   * instance's own write, heard while its commit is still under way (read it at the next scan).
   */
  changed(eventId: string, version: number, readNow = true): void {
    const r = this.#rosters.get(eventId);
    if (!r || version <= r.version) return;
    r.wanted = Math.max(r.wanted, version);
    // While this instance's own admits of the event are written, the notification is likely theirs,
    // heard before their answer (`wrote` takes them in); `writing`'s end reads anything else.
    if (readNow && r.trusted && r.version >= 0 && !this.#writing.has(eventId)) this.#refresh(r, 'change');
  }

  /** This instance's door statements of the event in flight (admits.ts) start (+1) or end (-1); the last to end reads what they did not bring. */
  writing(eventId: string, delta: 1 | -1): void {
    const n = (this.#writing.get(eventId) ?? 0) + delta;
    if (n > 0) {
      this.#writing.set(eventId, n);
      return;
    }
    this.#writing.delete(eventId);
    const r = this.#rosters.get(eventId);
    if (r && !r.current && r.trusted && r.version >= 0) this.#refresh(r, 'change');
  }

  deleted(eventId: string): void {
    this.#rosters.get(eventId)?.release();
    this.#rosters.delete(eventId);
    this.#totalPeople -= this.#people.get(eventId) ?? 0;
    this.#people.delete(eventId);
    this.metrics.rosters.set(this.#rosters.size);
    this.metrics.people.set(this.#totalPeople);
  }

  /** People in every roster held. */
  get people(): number {
    return this.#totalPeople;
  }

  /** Resolves once no roster read is under way (tests wait on it instead of a clock). */
  async settled(): Promise<void> {
    while (this.#reads.size > 0) await Promise.allSettled([...this.#reads]);
  }

  held(): string[] {
    return [...this.#rosters.keys()];
  }

  /**
   * Rosters the database's versions show behind every change this instance has heard of.
   * After a reconnect, a roster still being built counts too: its read may predate the outage.
   */
  behind(versions: ReadonlyMap<string, number>, reconnected: boolean): string[] {
    const late = (r: EventRoster) =>
      r.version < 0 ? reconnected : (versions.get(r.eventId) ?? 0) > Math.max(r.version, r.wanted);
    return [...this.#rosters.values()].filter(late).map((r) => r.eventId);
  }

  /**
   * The listener's version check, made while listening: every roster not in `missed` is
   * vouched for; those in `missed` lost a notification and are read whole.
   */
  vouch(versions: ReadonlyMap<string, number>, missed: readonly string[]): void {
    for (const r of this.#rosters.values()) {
      r.trusted = true;
      r.wanted = Math.max(r.wanted, versions.get(r.eventId) ?? 0);
      if (missed.includes(r.eventId)) {
        r.needFull = true;
        this.#refresh(r, 'version');
      } else if (r.version >= 0 && r.version < r.wanted && !this.#writing.has(r.eventId)) {
        this.#refresh(r, 'change');
      }
    }
  }

  /** This instance's own admits or undos, committed as `version` by transaction `xid`. */
  wrote(eventId: string, version: number, xid: number, changes: readonly RosterChange[]): void {
    const r = this.#rosters.get(eventId);
    if (!r) return;
    if (r.version < 0) {
      // Being built by a read that may predate this write: it reads on until it has it.
      r.wanted = Math.max(r.wanted, version);
      return;
    }
    r.applyCheckIns(version, xid, changes);
    if (!r.current && r.trusted) this.#refresh(r, 'change');
  }

  /** Drops rosters nobody has asked for lately. */
  sweep(): void {
    const now = performance.now();
    for (const r of [...this.#rosters.values()]) if (now - r.lastUsed > IDLE_MS) this.deleted(r.eventId);
    for (const [eventId, at] of [...this.#tooLarge]) if (now - at > IDLE_MS) this.#tooLarge.delete(eventId);
    this.metrics.rosters.set(this.#rosters.size);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    await Promise.allSettled([...this.#reads]);
    for (const eventId of [...this.#rosters.keys()]) this.deleted(eventId);
    this.#people.clear();
    this.#totalPeople = 0;
  }

  // ------------------------------------------------------------ the bound

  /** Counts the roster's people, then drops rosters, least recently asked for first, until all fit. */
  #count(r: EventRoster): void {
    const people = r.people;
    this.#totalPeople += people - (this.#people.get(r.eventId) ?? 0);
    this.#people.set(r.eventId, people);
    this.metrics.people.set(this.#totalPeople);
    if (people > this.maxPeople) {
      this.#tooLargeAlone(r.eventId);
      return;
    }
    while (this.#totalPeople > this.maxPeople) {
      const oldest = leastRecentlyUsed(this.#rosters.values(), r, (id) => this.#people.has(id));
      if (oldest === undefined) break;
      this.metrics.dropped.inc();
      this.deleted(oldest.eventId);
    }
  }

  /** Alone over the bound: never held, and not built again while its doors keep asking. */
  #tooLargeAlone(eventId: string): void {
    this.#tooLarge.set(eventId, performance.now());
    this.metrics.dropped.inc();
    this.deleted(eventId);
  }

  // ------------------------------------------------------------ reads

  /** Reads until the roster has taken in every change known; one read at a time per roster. */
  #refresh(r: EventRoster, cause: RefreshCause): void {
    if (r.refreshing || this.#closed) return;
    r.refreshing = true;
    const read = this.#read(r, cause).finally(() => {
      r.refreshing = false;
      this.#reads.delete(read);
    });
    this.#reads.add(read);
  }

  async #read(r: EventRoster, first: RefreshCause): Promise<void> {
    let cause = first;
    try {
      for (;;) {
        if (this.#closed || this.#rosters.get(r.eventId) !== r) return;
        const whole = r.version < 0 || r.needFull;
        this.metrics.refreshes.inc({ cause: r.version < 0 ? 'build' : cause });
        r.needFull = false;
        const before = r.version;
        if (whole) {
          if (!(await this.#readWhole(r))) return;
        } else {
          const rows = await readRoster(this.#deps.db, r.eventId, r.cursor);
          const head = rows[0];
          if (!head || head.ev_account_id === null) {
            this.deleted(r.eventId);
            return;
          }
          r.applyRead(rows, Number(head.version), head.cursor, false);
          this.#count(r);
          if (this.#rosters.get(r.eventId) !== r) return;
        }
        // Listener down meanwhile: its version check says what comes next.
        if (!r.trusted) return;
        if (r.needFull) {
          cause = 'version';
          continue;
        }
        // A change announced but not visible yet (its commit still under way) is read when
        // its notification arrives, or at the next scan.
        if (r.version >= r.wanted || r.version === before) return;
        cause = 'change';
      }
    } catch (err) {
      // The next scan of the event builds it again.
      if (!this.#closed)
        this.#deps.logger.warn({ err, eventId: r.eventId }, 'door roster read failed; the roster is dropped');
      if (this.#rosters.get(r.eventId) === r) this.deleted(r.eventId);
    }
  }

  /** Reads the event whole and puts it in the roster's place; false when the roster is no longer held (the event gone, the roster dropped or too large alone). */
  async #readWhole(r: EventRoster): Promise<boolean> {
    const held = () => !this.#closed && this.#rosters.get(r.eventId) === r;
    this.#wholeReads.add(r.eventId);
    try {
      const read = await readWhole(r.eventId, {
        connection: this.#deps.connection,
        pageRows: this.pageRows,
        between: () => this.betweenPages(r.eventId),
        held,
        start: (head) => {
          if (head.ev_account_id === null) this.deleted(r.eventId);
          else if (head.people > this.maxPeople) this.#tooLargeAlone(r.eventId);
          return held();
        },
      });
      if (!read || !held()) return false;
      r.finishWhole(read);
    } finally {
      this.#wholeReads.delete(r.eventId);
    }
    this.#count(r);
    return this.#rosters.get(r.eventId) === r;
  }
}
