// One event's door roster in memory (docs/decisions/15-the-door.md, speed): every booking with its people,
// indexed by the QR values a scan may carry. It answers lookups, the refusals that can never
// become admits, and the door screen's roster, without the database. rosters.ts keeps it
// current; nothing here reads the database.
//
// Every booking carries `v`, the event's version its state was read or written at, so a
// read that started before one of this instance's own writes never overwrites it.
import { createHash } from 'node:crypto';
import type { Mode, RegistrationStatus, TrackDoc } from '../../db/database.js';
import type { RosterReadRow } from './roster.repo.js';
import { ADMITTED_STATUS, isRetiredQr } from './entry-rule.js';

export interface RosterPerson {
  id: string;
  idx: number;
  name: string;
  email: string;
  checkedInAt: Date | null;
  checkedInBy: string | null;
  /** The transaction that last wrote this person (0: before the door kept track). */
  xid: number;
  /** sha256 (hex) of the QR value that names this person (the booking's for the primary). */
  key: string;
}

export interface RosterBooking {
  id: string;
  status: RegistrationStatus;
  ticketType: string;
  subEventId: number | null;
  ticketCode: string | null;
  previousCodes: string[];
  xid: number;
  people: RosterPerson[];
  v: number;
}

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

const xidOf = (text: string | null) => (text === null ? 0 : Number(text));

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
  readonly #bookings = new Map<string, RosterBooking>();
  readonly #byValue = new Map<string, { id: string; only: number | undefined; transferred: boolean }>();
  readonly #byKey = new Map<string, string>();
  /** Versions of this instance's own admits and undos taken in ahead of `version` (`applyCheckIns`). */
  readonly #ownAhead = new Set<number>();

  constructor(readonly eventId: string) {}

  get size(): number {
    return this.#bookings.size;
  }

  /** Current: built, vouched for, and no change known that it has not taken in. */
  get current(): boolean {
    return this.version >= 0 && this.trusted && this.version >= this.wanted;
  }

  hit(value: string): RosterHit | undefined {
    const at = this.#byValue.get(value);
    const booking = at && this.#bookings.get(at.id);
    return booking ? { booking, only: at.only, transferred: at.transferred } : undefined;
  }

  /** The QR value a roster key (sha256 of it) stands for. */
  valueOfKey(key: string): string | undefined {
    return this.#byKey.get(key);
  }

  /** Takes in a read made at `version`: every booking it holds, or (whole) the event's every booking. */
  applyRead(rows: readonly RosterReadRow[], version: number, cursor: string, whole: boolean): void {
    const first = rows[0]!;
    this.accountId = first.ev_account_id;
    this.mode = first.ev_mode;
    this.title = first.ev_title;
    this.tracks = first.ev_tracks ?? [];
    const read = new Map<string, RosterBooking>();
    for (const r of rows) {
      if (r.registration_id === null) continue;
      let b = read.get(r.registration_id);
      if (!b) {
        b = {
          id: r.registration_id,
          status: r.status,
          ticketType: r.ticket_type,
          subEventId: r.sub_event_id,
          ticketCode: r.ticket_code,
          previousCodes: r.previous_ticket_codes ?? [],
          xid: xidOf(r.r_xid),
          people: [],
          v: version,
        };
        read.set(b.id, b);
      }
      const qr = r.idx === 0 ? (r.ticket_code ?? r.registration_id) : r.attendee_id;
      b.people.push({ id: r.attendee_id, idx: r.idx, name: r.name, email: r.email, checkedInAt: r.checked_in_at, checkedInBy: r.checked_in_by, xid: xidOf(r.a_xid), key: sha256(qr) });
    }
    if (whole) {
      for (const old of [...this.#bookings.values()]) if (!read.has(old.id) && old.v <= version) this.#remove(old);
    }
    for (const b of read.values()) {
      const old = this.#bookings.get(b.id);
      // A write of this instance's own, newer than the read, stays.
      if (old && old.v > version) continue;
      if (old) this.#remove(old);
      this.#add(b);
    }
    this.version = Math.max(this.version, version);
    this.cursor = cursor;
    this.#advance();
  }

  /**
   * Takes in this instance's own admits or undos, committed as `version` by transaction `xid`.
   * When the roster stood at the version before (or comes to, by a read), it now stands at this one.
   */
  applyCheckIns(version: number, xid: number, changes: readonly { registrationId: string; idx: number; at: Date | null; by: string | null }[]): void {
    for (const c of changes) {
      const b = this.#bookings.get(c.registrationId);
      const person = b?.people.find((x) => x.idx === c.idx);
      if (!b || !person || b.v > version) continue;
      person.checkedInAt = c.at;
      person.checkedInBy = c.at === null ? null : c.by;
      person.xid = xid;
    }
    for (const c of changes) {
      const b = this.#bookings.get(c.registrationId);
      if (b && b.v < version) b.v = version;
    }
    if (version > this.version) this.#ownAhead.add(version);
    this.#advance();
    this.wanted = Math.max(this.wanted, version);
  }

  /**
   * Moves the version over this instance's own writes that follow it: their changes are in
   * already (a read that predates one keeps it, `old.v > version`), and a version between
   * that is not one of them (another instance's change, a booking) stops the move until read.
   */
  #advance(): void {
    if (this.version < 0) return;
    while (this.#ownAhead.has(this.version + 1)) this.version++;
    for (const v of this.#ownAhead) if (v <= this.version) this.#ownAhead.delete(v);
  }

  /** Bookings as stored (every status), in the order they were first read; those written since `since` only, when given. */
  *bookings(since?: Snapshot): Iterable<RosterBooking> {
    for (const b of this.#bookings.values()) {
      if (since && visibleIn(b.xid, since) && b.people.every((p) => visibleIn(p.xid, since))) continue;
      yield b;
    }
  }

  /** People of confirmed bookings expected, and in. */
  counts(): { arrived: number; expected: number } {
    let arrived = 0;
    let expected = 0;
    for (const b of this.#bookings.values()) {
      if (b.status !== ADMITTED_STATUS) continue;
      expected += b.people.length;
      for (const p of b.people) if (p.checkedInAt !== null) arrived++;
    }
    return { arrived, expected };
  }

  #add(b: RosterBooking): void {
    this.#bookings.set(b.id, b);
    for (const p of b.people) {
      // A member's own id names that member; the primary's id names the whole booking (and
      // stops being a ticket once the booking is transferred).
      this.#byValue.set(p.id, { id: b.id, only: p.idx > 0 ? p.idx : undefined, transferred: isRetiredQr(p.idx, b.ticketCode) });
      this.#byKey.set(p.key, p.idx === 0 ? (b.ticketCode ?? b.id) : p.id);
    }
    if (b.ticketCode !== null) this.#byValue.set(b.ticketCode, { id: b.id, only: undefined, transferred: false });
    for (const code of b.previousCodes) this.#byValue.set(code, { id: b.id, only: undefined, transferred: true });
  }

  #remove(b: RosterBooking): void {
    this.#bookings.delete(b.id);
    for (const p of b.people) {
      this.#byValue.delete(p.id);
      this.#byKey.delete(p.key);
    }
    if (b.ticketCode !== null) this.#byValue.delete(b.ticketCode);
    for (const code of b.previousCodes) this.#byValue.delete(code);
  }
}
