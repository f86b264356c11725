// The bookings and people of one door roster (roster.ts), compact: no object per booking or
// person. Each is a slot in typed columns, its text a record in one byte arena
// (roster-columns.ts); repeated strings (statuses, ticket types, who admitted) are kept once; the
// QR values and roster keys find their slot through tables of slot numbers. A booking, with its
// people, is made as an object only when asked for (`read`).
import { hash } from 'node:crypto';
import type { RegistrationStatus } from '../../db/database.js';
import { detach, grown, hashText, Interned, SlotTable, TextArena } from './roster-columns.js';

export interface RosterPerson {
  id: string;
  idx: number;
  name: string;
  email: string;
  checkedInAt: Date | null;
  checkedInBy: string | null;
  /** Their seat in words ("Stalls · Row C, seat 12"); null without one. */
  seat: string | null;
  /** The transaction that last wrote this person (0: before the door kept track). */
  xid: number;
}

/** A booking as the roster holds it, made when asked for. */
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

/** The QR value a person shows: the booking's (its ticketCode after a transfer) for the primary, their own id for a member. */
export const qrValueOf = (
  booking: Pick<RosterBooking, 'id' | 'ticketCode'>,
  person: Pick<RosterPerson, 'id' | 'idx'>,
) => (person.idx === 0 ? (booking.ticketCode ?? booking.id) : person.id);

/** A person's text record: their own id (null: the booking's), name, email, and a seat only when they have one (an unseated person's record is no longer). */
const personText = (id: string | null, p: Pick<RosterPerson, 'name' | 'email' | 'seat'>) =>
  p.seat === null ? [id, p.name, p.email] : [id, p.name, p.email, p.seat];

/** The first 32 bits of sha256(QR value), by which a roster key is found (read from its one-byte string: no Buffer made). */
function keyHash(qr: string): number {
  const d = hash('sha256', qr, 'binary');
  return (d.charCodeAt(0) << 24) | (d.charCodeAt(1) << 16) | (d.charCodeAt(2) << 8) | d.charCodeAt(3);
}

/**
 * The bookings and people of one read, in slots. A booking's people are consecutive slots, in
 * index order. A booking replaced with the same text (ids, codes, names: an admit, a status)
 * is changed where it stands; otherwise its slots and text are left behind and it is added anew.
 */
export class Store {
  kinds = new Interned();
  actors = new Interned();
  text: TextArena;
  /** Bookings and people held (slots left behind not counted). */
  bookings = 0;
  people = 0;
  bookingSlots = 0;
  personSlots = 0;

  bText: Uint32Array;
  bStatus: Uint16Array;
  bType: Uint16Array;
  /** The track (sub-event); -1 for a whole-event ticket. */
  bSub: Int32Array;
  bXid: Float64Array;
  bV: Float64Array;
  bFirst: Int32Array;
  /** People on the booking; 0 for a slot left behind. */
  bCount: Int32Array;

  pBooking: Int32Array;
  pIdx: Int32Array;
  /** When admitted (ms since the epoch); NaN when not in. */
  pAt: Float64Array;
  /** Who admitted (an actor's number); -1 when not in. */
  pBy: Int32Array;
  pXid: Float64Array;
  pText: Uint32Array;
  pIdHash: Int32Array;
  pKeyHash: Int32Array;

  /** People by their own id (the QR value of a member; the booking's id for the primary). */
  byId: SlotTable;
  /** People by sha256 of the QR value they show (the door screen's roster key). */
  byKey: SlotTable;
  /** Ticket codes, current and previous (few: transferred bookings only): slot × 2, + 1 when previous. */
  codes = new Map<string, number>();
  /** Bookings whose id is not their primary's id (none the service makes today). */
  oddIds = new Map<string, number>();

  constructor(bookings: number, people: number) {
    this.text = new TextArena(people * 40);
    this.bText = new Uint32Array(bookings);
    this.bStatus = new Uint16Array(bookings);
    this.bType = new Uint16Array(bookings);
    this.bSub = new Int32Array(bookings);
    this.bXid = new Float64Array(bookings);
    this.bV = new Float64Array(bookings);
    this.bFirst = new Int32Array(bookings);
    this.bCount = new Int32Array(bookings);
    this.pBooking = new Int32Array(people);
    this.pIdx = new Int32Array(people);
    this.pAt = new Float64Array(people);
    this.pBy = new Int32Array(people);
    this.pXid = new Float64Array(people);
    this.pText = new Uint32Array(people);
    this.pIdHash = new Int32Array(people);
    this.pKeyHash = new Int32Array(people);
    this.byId = new SlotTable((p) => this.pIdHash[p]!, people);
    this.byKey = new SlotTable((p) => this.pKeyHash[p]!, people);
  }

  #roomForBookings(n: number): void {
    if (n <= this.bText.length) return;
    this.bText = grown(this.bText, n);
    this.bStatus = grown(this.bStatus, n);
    this.bType = grown(this.bType, n);
    this.bSub = grown(this.bSub, n);
    this.bXid = grown(this.bXid, n);
    this.bV = grown(this.bV, n);
    this.bFirst = grown(this.bFirst, n);
    this.bCount = grown(this.bCount, n);
  }

  #roomForPeople(n: number): void {
    if (n <= this.pText.length) return;
    this.pBooking = grown(this.pBooking, n);
    this.pIdx = grown(this.pIdx, n);
    this.pAt = grown(this.pAt, n);
    this.pBy = grown(this.pBy, n);
    this.pXid = grown(this.pXid, n);
    this.pText = grown(this.pText, n);
    this.pIdHash = grown(this.pIdHash, n);
    this.pKeyHash = grown(this.pKeyHash, n);
  }

  #kind(s: string): number {
    const n = this.kinds.id(s);
    if (n > 0xffff) throw new Error('more statuses and ticket types than a door roster keeps');
    return n;
  }

  bookingId(slot: number): string {
    return this.text.field(this.bText[slot]!, 0)!;
  }

  ticketCode(slot: number): string | null {
    return this.text.field(this.bText[slot]!, 1);
  }

  personId(p: number): string {
    return this.text.field(this.pText[p]!, 0) ?? this.bookingId(this.pBooking[p]!);
  }

  /** The QR value the person shows. */
  qrOf(p: number): string {
    const b = this.pBooking[p]!;
    return this.pIdx[p] === 0 ? (this.ticketCode(b) ?? this.bookingId(b)) : this.personId(p);
  }

  /** The slot of the booking with this id; -1 when not held. */
  slotOf(id: string): number {
    const odd = this.oddIds.get(id);
    if (odd !== undefined) return odd;
    // The primary whose id is the booking's (kept as null in its text).
    const p = this.byId.find(
      hashText(id),
      (q) =>
        this.pIdx[q] === 0 &&
        this.text.field(this.pText[q]!, 0) === null &&
        this.bookingId(this.pBooking[q]!) === id,
    );
    return p < 0 ? -1 : this.pBooking[p]!;
  }

  add(b: RosterBooking): void {
    const slot = this.bookingSlots;
    this.#roomForBookings(slot + 1);
    this.bookingSlots++;
    this.bText[slot] = this.text.add([b.id, b.ticketCode, ...b.previousCodes]);
    this.#setBooking(slot, b);
    this.bFirst[slot] = this.personSlots;
    this.bCount[slot] = b.people.length;
    this.#roomForPeople(this.personSlots + b.people.length);
    let primary = false;
    for (const person of b.people) {
      const p = this.personSlots++;
      const sameId = person.idx === 0 && person.id === b.id;
      primary ||= sameId;
      this.pBooking[p] = slot;
      this.pIdx[p] = person.idx;
      this.pText[p] = this.text.add(personText(sameId ? null : person.id, person));
      this.setPerson(p, person);
      this.pIdHash[p] = hashText(person.id);
      this.pKeyHash[p] = keyHash(qrValueOf(b, person));
      this.byId.add(p);
      this.byKey.add(p);
    }
    if (!primary) this.oddIds.set(b.id, slot);
    if (b.ticketCode !== null) this.codes.set(b.ticketCode, slot * 2);
    for (const code of b.previousCodes) this.codes.set(code, slot * 2 + 1);
    this.bookings++;
    this.people += b.people.length;
  }

  #setBooking(slot: number, b: RosterBooking): void {
    this.bStatus[slot] = this.#kind(b.status);
    this.bType[slot] = this.#kind(b.ticketType);
    this.bSub[slot] = b.subEventId ?? -1;
    this.bXid[slot] = b.xid;
    this.bV[slot] = b.v;
  }

  /** The person at slot `p` as admitted (or not) by transaction `xid`. */
  setPerson(p: number, person: Pick<RosterPerson, 'checkedInAt' | 'checkedInBy' | 'xid'>): void {
    this.pAt[p] = person.checkedInAt === null ? Number.NaN : person.checkedInAt.getTime();
    this.pBy[p] =
      person.checkedInAt === null || person.checkedInBy === null ? -1 : this.actors.id(person.checkedInBy);
    this.pXid[p] = person.xid;
  }

  remove(slot: number): void {
    const [id, ticketCode, ...previous] = this.text.fields(this.bText[slot]!);
    for (const code of [ticketCode, ...previous]) {
      const at = code ? this.codes.get(code) : undefined;
      if (at !== undefined && at >> 1 === slot) this.codes.delete(code!);
    }
    if (this.oddIds.get(id!) === slot) this.oddIds.delete(id!);
    const first = this.bFirst[slot]!;
    for (let p = first; p < first + this.bCount[slot]!; p++) {
      this.byId.delete(p);
      this.byKey.delete(p);
      this.text.drop(this.pText[p]!);
      this.pBooking[p] = -1;
    }
    this.text.drop(this.bText[slot]!);
    this.bookings--;
    this.people -= this.bCount[slot]!;
    this.bCount[slot] = 0;
  }

  /** Puts `b` in the place of the booking at `slot`: where it stands when only its state changed. */
  replace(slot: number, b: RosterBooking): void {
    if (!this.#sameText(slot, b)) {
      this.remove(slot);
      this.add(b);
      return;
    }
    this.#setBooking(slot, b);
    const first = this.bFirst[slot]!;
    b.people.forEach((person, i) => this.setPerson(first + i, person));
  }

  #sameText(slot: number, b: RosterBooking): boolean {
    if (this.bCount[slot] !== b.people.length) return false;
    const fields = this.text.fields(this.bText[slot]!);
    const wanted = [b.id, b.ticketCode, ...b.previousCodes];
    if (fields.length !== wanted.length || fields.some((f, i) => f !== wanted[i])) return false;
    const first = this.bFirst[slot]!;
    return b.people.every((person, i) => {
      const [id, name, email, seat] = this.text.fields(this.pText[first + i]!);
      return (
        this.pIdx[first + i] === person.idx &&
        (id ?? b.id) === person.id &&
        name === person.name &&
        email === person.email &&
        (seat ?? null) === person.seat
      );
    });
  }

  live(slot: number): boolean {
    return this.bCount[slot]! > 0;
  }

  read(slot: number): RosterBooking {
    const [id, ticketCode, ...previous] = this.text.fields(this.bText[slot]!);
    const people: RosterPerson[] = [];
    const first = this.bFirst[slot]!;
    for (let p = first; p < first + this.bCount[slot]!; p++) {
      const [own, name, email, seat] = this.text.fields(this.pText[p]!);
      const at = this.pAt[p]!;
      people.push({
        id: own ?? id!,
        idx: this.pIdx[p]!,
        name: name!,
        email: email!,
        checkedInAt: Number.isNaN(at) ? null : new Date(at),
        checkedInBy: this.pBy[p]! < 0 ? null : this.actors.string(this.pBy[p]!),
        seat: seat ?? null,
        xid: this.pXid[p]!,
      });
    }
    const sub = this.bSub[slot]!;
    return {
      id: id!,
      status: this.kinds.string(this.bStatus[slot]!) as RegistrationStatus,
      ticketType: this.kinds.string(this.bType[slot]!),
      subEventId: sub < 0 ? null : sub,
      ticketCode: ticketCode ?? null,
      previousCodes: previous as string[],
      xid: this.bXid[slot]!,
      people,
      v: this.bV[slot]!,
    };
  }

  /**
   * Gives the store's memory back now and leaves it empty (a store of no bookings, as
   * `new Store(0, 0)`). Its columns live outside the JavaScript heap, and V8 frees such memory
   * only when it collects the arrays holding it, which a full collection does, started once the
   * memory outside the heap has grown by tens of MB: meanwhile a dropped or replaced roster
   * stays resident beside its successor. Whoever releases a store must hold its only use.
   */
  release(): void {
    const columns = Object.values(this).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v));
    const buffers = [...columns, this.byId.parts().places, this.byKey.parts().places].map((v) => v.buffer);
    const text = this.text.parts().bytes;
    // The arena's bytes are a buffer of its own (allocUnsafeSlow), never a slice of Node's pool.
    if (text.byteOffset === 0 && text.byteLength === text.buffer.byteLength) buffers.push(text.buffer);
    Object.assign(this, new Store(0, 0));
    // The empty store's tables read the hashes from its own columns: made again over these.
    this.byId = new SlotTable((p) => this.pIdHash[p]!, 0);
    this.byKey = new SlotTable((p) => this.pKeyHash[p]!, 0);
    for (const b of buffers) detach(b as ArrayBuffer);
  }

  /** The person at index `idx` of the booking at `slot`; -1 when none. */
  personAt(slot: number, idx: number): number {
    const first = this.bFirst[slot]!;
    for (let p = first; p < first + this.bCount[slot]!; p++) if (this.pIdx[p] === idx) return p;
    return -1;
  }
}
