// One event's door roster in memory (docs/decisions/15-the-door.md, speed): every booking with its people,
// indexed by the QR values a scan may carry. It answers lookups, the refusals that can never
// become admits, and the door screen's roster, without the database. rosters.ts keeps it
// current; nothing here reads the database.
//
// It is compact (roster-store.ts): no object per booking or person; the booking a scan names,
// with its people, is made when asked for. A whole read fills a store of its own in a worker
// thread (roster-build.ts), which becomes the roster's only once complete.
//
// Every booking carries `v`, the event's version its state was read or written at, so a
// read that started before one of this instance's own writes never overwrites it.
import { createHash } from 'node:crypto';
import type { Mode, TrackDoc } from '../../db/database.js';
import type { RosterHead, RosterPersonRow, RosterReadRow } from './roster.repo.js';
import { ADMITTED_STATUS, isRetiredQr } from './entry-rule.js';
import { hashText } from './roster-columns.js';
import { Grouper, RosterBuild, type WholeRead } from './roster-build.js';
import { Store, type RosterBooking } from './roster-store.js';

export { RosterBuild, type WholeRead } from './roster-build.js';
export { qrValueOf, type RosterBooking, type RosterPerson } from './roster-store.js';

/** What a QR value names: a booking, perhaps one person on it, perhaps an old (transferred) code. */
export interface RosterHit {
  booking: RosterBooking;
  only: number | undefined;
  transferred: boolean;
}

/** A pg_snapshot (`xmin:xmax:xip,…`), as the roster's cursor carries it. */
export interface Snapshot {
  xmin: number;
  xmax: number;
  running: Set<number>;
}

export function parseSnapshot(text: string): Snapshot | undefined {
  const m = /^([0-9]{1,20}):([0-9]{1,20}):([0-9,]*)$/.exec(text);
  if (!m) return undefined;
  const running = new Set(m[3] === '' ? [] : m[3]!.split(',').map(Number));
  const xmin = Number(m[1]);
  const xmax = Number(m[2]);
  if (!Number.isSafeInteger(xmin) || !Number.isSafeInteger(xmax) || xmin > xmax) return undefined;
  return { xmin, xmax, running };
}

/** Whether a transaction's writes were visible in a snapshot (pg_visible_in_snapshot). */
export const visibleIn = (xid: number, s: Snapshot) => xid < s.xmin || (xid < s.xmax && !s.running.has(xid));

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const ROSTER_KEY = /^[0-9a-f]{64}$/;

/** A check-in or its undo this instance wrote, as the roster takes it in (`applyCheckIns`). */
export interface RosterChange {
  registrationId: string;
  idx: number;
  at: Date | null;
  by: string | null;
}

/** The roster asked for least recently among those `counted`, other than `except`: the first to drop. */
export function leastRecentlyUsed(
  rosters: Iterable<EventRoster>,
  except: EventRoster,
  counted: (eventId: string) => boolean,
): EventRoster | undefined {
  let oldest: EventRoster | undefined;
  for (const other of rosters) {
    if (
      other !== except &&
      counted(other.eventId) &&
      (oldest === undefined || other.lastUsed < oldest.lastUsed)
    )
      oldest = other;
  }
  return oldest;
}

export class EventRoster {
  accountId = '';
  mode: Mode = 'test';
  title = '';
  tracks: readonly TrackDoc[] = [];
  /** The version every change up to which this roster reflects; -1 until built. */
  version = -1;
  /** The highest version known to exist (a notification, this instance's own write, a check). */
  wanted = 0;
  /** The snapshot of the last read: the roster holds every change it could see. */
  cursor = '';
  /** False while the listener is down, until a version check has vouched for the roster. */
  trusted = true;
  /** The next read must be a whole one (a notification was missed). */
  needFull = false;
  refreshing = false;
  lastUsed = 0;
  #store = new Store(0, 0);
  #released = false;
  /** Versions of this instance's own admits and undos taken in ahead of `version` (`applyCheckIns`). */
  readonly #ownAhead = new Set<number>();

  constructor(readonly eventId: string) {}

  /** Bookings held. */
  get size(): number {
    return this.#store.bookings;
  }

  /** People held. */
  get people(): number {
    return this.#store.people;
  }

  /** Current: built, vouched for, and no change known that it has not taken in. */
  get current(): boolean {
    return this.version >= 0 && this.trusted && this.version >= this.wanted;
  }

  hit(value: string): RosterHit | undefined {
    const s = this.#store;
    const code = s.codes.get(value);
    if (code !== undefined)
      return { booking: s.read(code >> 1), only: undefined, transferred: (code & 1) === 1 };
    const p = s.byId.find(hashText(value), (q) => s.personId(q) === value);
    if (p < 0) return undefined;
    const booking = s.read(s.pBooking[p]!);
    const idx = s.pIdx[p]!;
    // A member's own id names that member; the primary's id names the whole booking (and
    // stops being a ticket once the booking is transferred).
    return { booking, only: idx > 0 ? idx : undefined, transferred: isRetiredQr(idx, booking.ticketCode) };
  }

  /** The QR value a roster key (sha256 of it) stands for. */
  valueOfKey(key: string): string | undefined {
    if (!ROSTER_KEY.test(key)) return undefined;
    const s = this.#store;
    let value: string | undefined;
    s.byKey.find(Number.parseInt(key.slice(0, 8), 16) | 0, (p) => {
      const qr = s.qrOf(p);
      if (sha256(qr) !== key) return false;
      value = qr;
      return true;
    });
    return value;
  }

  /** Takes in a read made at `version`: every booking it holds, or (whole) the event's every booking. */
  applyRead(rows: readonly RosterReadRow[], version: number, cursor: string, whole: boolean): void {
    const first = rows[0]!;
    const people = rows.filter((r): r is RosterReadRow & RosterPersonRow => r.registration_id !== null);
    if (whole) {
      const head: RosterHead = {
        ...first,
        version,
        cursor,
        bookings: new Set(people.map((r) => r.registration_id)).size,
        people: people.length,
      };
      const build = new RosterBuild(head);
      build.add(people);
      this.finishWhole(build.done());
      return;
    }
    this.#takeHead(first);
    const s = this.#store;
    const rowsOf = new Grouper(version, (b) => {
      const slot = s.slotOf(b.id);
      // A write of this instance's own, newer than the read, stays.
      if (slot < 0) s.add(b);
      else if (s.bV[slot]! <= version) s.replace(slot, b);
    });
    rowsOf.add(people);
    rowsOf.end();
    this.version = Math.max(this.version, version);
    this.cursor = cursor;
    this.#advance();
  }

  /**
   * Puts a whole read, complete, in the place of what the roster held: the bookings it did not
   * see are gone, except this instance's own writes newer than the read, which stay.
   */
  finishWhole(read: WholeRead): void {
    const fresh = read.store;
    const { version, cursor } = read.head;
    const old = this.#store;
    for (let slot = 0; slot < old.bookingSlots; slot++) {
      if (!old.live(slot) || old.bV[slot]! <= version) continue;
      const b = old.read(slot);
      const at = fresh.slotOf(b.id);
      if (at < 0) fresh.add(b);
      else fresh.replace(at, b);
    }
    this.#store = fresh;
    old.release();
    this.#takeHead(read.head);
    this.version = Math.max(this.version, version);
    this.cursor = cursor;
    this.#advance();
  }

  /** Dropped: its memory is given back now, and it is never current again (a read still under way fills it for nothing). */
  release(): void {
    this.#released = true;
    this.version = -1;
    this.#store.release();
  }

  #takeHead(head: Pick<RosterHead, 'ev_account_id' | 'ev_mode' | 'ev_title' | 'ev_tracks'>): void {
    this.accountId = head.ev_account_id ?? '';
    this.mode = head.ev_mode;
    this.title = head.ev_title;
    this.tracks = head.ev_tracks ?? [];
  }

  /**
   * Takes in this instance's own admits or undos, committed as `version` by transaction `xid`.
   * When the roster stood at the version before (or comes to, by a read), it now stands at this one.
   */
  applyCheckIns(version: number, xid: number, changes: readonly RosterChange[]): void {
    const s = this.#store;
    const slots = changes.map((c) => s.slotOf(c.registrationId));
    changes.forEach((c, i) => {
      const slot = slots[i]!;
      if (slot < 0 || s.bV[slot]! > version) return;
      const p = s.personAt(slot, c.idx);
      if (p >= 0) s.setPerson(p, { checkedInAt: c.at, checkedInBy: c.by, xid });
    });
    for (const slot of slots) if (slot >= 0 && s.bV[slot]! < version) s.bV[slot] = version;
    if (version > this.version) this.#ownAhead.add(version);
    this.#advance();
    this.wanted = Math.max(this.wanted, version);
  }

  /**
   * Moves the version over this instance's own writes that follow it: their changes are in
   * already (a read that predates one keeps it, `bV > version`), and a version between that is
   * not one of them (another instance's change, a booking) stops the move until read.
   */
  #advance(): void {
    if (this.version < 0) return;
    while (this.#ownAhead.has(this.version + 1)) this.version++;
    for (const v of this.#ownAhead) if (v <= this.version) this.#ownAhead.delete(v);
  }

  /** Bookings as stored (every status), in the order they were read; those written since `since` only, when given. */
  *bookings(since?: Snapshot): Iterable<RosterBooking> {
    const s = this.#store;
    for (let slot = 0; slot < s.bookingSlots; slot++) {
      if (!s.live(slot)) continue;
      if (since && this.#seenBy(slot, since)) continue;
      yield s.read(slot);
      // A store replaced or released meanwhile has been emptied (`Store.release`): read it in one go.
      if (this.#store !== s || this.#released)
        throw new Error('the roster changed while its bookings were read');
    }
  }

  #seenBy(slot: number, since: Snapshot): boolean {
    const s = this.#store;
    if (!visibleIn(s.bXid[slot]!, since)) return false;
    const first = s.bFirst[slot]!;
    for (let p = first; p < first + s.bCount[slot]!; p++) if (!visibleIn(s.pXid[p]!, since)) return false;
    return true;
  }

  /** People of confirmed bookings expected, and in. */
  counts(): { arrived: number; expected: number } {
    const s = this.#store;
    const admitted = s.kinds.id(ADMITTED_STATUS);
    let arrived = 0;
    let expected = 0;
    for (let slot = 0; slot < s.bookingSlots; slot++) {
      if (s.bStatus[slot] !== admitted || !s.live(slot)) continue;
      const first = s.bFirst[slot]!;
      const n = s.bCount[slot]!;
      expected += n;
      for (let p = first; p < first + n; p++) if (!Number.isNaN(s.pAt[p]!)) arrived++;
    }
    return { arrived, expected };
  }
}
