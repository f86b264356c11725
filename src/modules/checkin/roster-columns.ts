// The storage a door roster (roster.ts) keeps its bookings and people in. A large event's roster
// holds hundreds of thousands of people; as an object per person, with its strings and an entry
// in a Map or two, it costs several times its data, and the JavaScript heap grows with it. So the
// text lives in one byte arena, the numbers in typed arrays (both outside the heap, sized to what
// they hold), and the QR values are found through open-addressing tables of slot numbers. A Map
// costs tens of bytes per entry before its key; these tables cost a few.

/** Grows a typed array to hold at least `need` items, copying what it holds. */
export function grown<T extends Int32Array | Uint32Array | Uint16Array | Float64Array>(
  a: T,
  need: number,
): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, Math.ceil(a.length * 1.5), 16));
  next.set(a);
  return next;
}

/**
 * Frees an ArrayBuffer's memory now, not at the collection that would find it unused: its views
 * read as empty from then on (ArrayBuffer.prototype.transfer, ES2024, Node 21 and later; on an
 * older runtime the memory waits for that collection, as it did before).
 */
export function detach(b: ArrayBuffer): void {
  const transfer = (b as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer;
  if (b.byteLength > 0 && typeof transfer === 'function') transfer.call(b, 0);
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * Records of a few strings (or nulls) each, appended to one UTF-8 byte arena and named by
 * their offset. A record is never changed; one replaced is left behind as waste (`waste`), and
 * the roster is built afresh by its next whole read.
 */
export class TextArena {
  #bytes: Buffer;
  #end = 0;
  waste = 0;

  constructor(capacity = 256) {
    this.#bytes = Buffer.allocUnsafeSlow(Math.max(capacity, 16));
  }

  /** What the arena holds, to be sent to another thread (its buffer transferred, not copied). */
  parts(): ArenaParts {
    return { bytes: this.#bytes, end: this.#end, waste: this.waste };
  }

  static from(parts: ArenaParts): TextArena {
    const arena = new TextArena(16);
    arena.#bytes = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.byteLength);
    arena.#end = parts.end;
    arena.waste = parts.waste;
    return arena;
  }

  get bytes(): number {
    return this.#end;
  }

  /** Appends a record of these fields; answers its offset. */
  add(fields: readonly (string | null)[]): number {
    let need = varintSize(fields.length);
    for (const f of fields) {
      const n = f === null ? 0 : Buffer.byteLength(f, 'utf8');
      need += varintSize(f === null ? 0 : n + 1) + n;
    }
    this.#reserve(need);
    const at = this.#end;
    let p = this.#putVarint(at, fields.length);
    for (const f of fields) {
      if (f === null) {
        p = this.#putVarint(p, 0);
        continue;
      }
      const n = Buffer.byteLength(f, 'utf8');
      p = this.#putVarint(p, n + 1);
      p += this.#bytes.write(f, p, n, 'utf8');
    }
    this.#end = p;
    return at;
  }

  /** Every field of the record at `offset`. */
  fields(offset: number): (string | null)[] {
    this.#at = offset;
    const count = this.#varint();
    const out: (string | null)[] = [];
    for (let i = 0; i < count; i++) out.push(this.#next());
    return out;
  }

  /** Field `k` of the record at `offset` (null when it is null or past the record's end). */
  field(offset: number, k: number): string | null {
    this.#at = offset;
    if (k >= this.#varint()) return null;
    for (let i = 0; i < k; i++) this.#skip();
    return this.#next();
  }

  /** Forgets the record at `offset` (counted as waste). */
  drop(offset: number): void {
    this.#at = offset;
    const count = this.#varint();
    for (let i = 0; i < count; i++) this.#skip();
    this.waste += this.#at - offset;
  }

  /** Gives back the room past the end (after a whole build, which knows no more is coming soon). */
  trim(): void {
    if (this.#bytes.length - this.#end < 4096) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.#end, 16));
    this.#bytes.copy(next, 0, 0, this.#end);
    this.#bytes = next;
  }

  #reserve(n: number): void {
    if (this.#end + n <= this.#bytes.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.#end + n, Math.ceil(this.#bytes.length * 1.5)));
    this.#bytes.copy(next, 0, 0, this.#end);
    this.#bytes = next;
  }

  #putVarint(p: number, v: number): number {
    while (v >= 0x80) {
      this.#bytes[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.#bytes[p++] = v;
    return p;
  }

  /** Where the record being read is at. */
  #at = 0;

  #varint(): number {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.#bytes[this.#at++]!;
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v >>> 0;
    }
  }

  #skip(): void {
    const len = this.#varint();
    if (len > 0) this.#at += len - 1;
  }

  /** The field at #at (its length, then its bytes), stepping past it. */
  #next(): string | null {
    const len = this.#varint();
    if (len === 0) return null;
    const start = this.#at;
    this.#at += len - 1;
    return this.#bytes.toString('utf8', start, this.#at);
  }
}

export interface ArenaParts {
  bytes: Uint8Array;
  end: number;
  waste: number;
}

const varintSize = (v: number) => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : 4);

/**
 * Slot numbers found by a 32-bit hash: open addressing with linear probing (an empty place is
 * 0, a slot `s` is kept as `s + 1`), at most 60 % full, deletions shifting the probe chain back
 * so no tombstone is left. The hash of a slot held must not change while it is held.
 */
export class SlotTable {
  #places: Int32Array;
  #bits: number;
  #size = 0;

  constructor(
    readonly hashOf: (slot: number) => number,
    expected = 0,
  ) {
    this.#bits = 4;
    while ((1 << this.#bits) * 0.6 < expected) this.#bits++;
    this.#places = new Int32Array(1 << this.#bits);
  }

  get size(): number {
    return this.#size;
  }

  parts(): TableParts {
    return { places: this.#places, bits: this.#bits, size: this.#size };
  }

  static from(hashOf: (slot: number) => number, parts: TableParts): SlotTable {
    const table = new SlotTable(hashOf);
    table.#places = parts.places;
    table.#bits = parts.bits;
    table.#size = parts.size;
    return table;
  }

  #home(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> (32 - this.#bits);
  }

  add(slot: number): void {
    if (this.#size + 1 > (1 << this.#bits) * 0.6) this.#rehash(this.#bits + 1);
    this.#place(slot);
    this.#size++;
  }

  #place(slot: number): void {
    const mask = (1 << this.#bits) - 1;
    let i = this.#home(this.hashOf(slot));
    while (this.#places[i] !== 0) i = (i + 1) & mask;
    this.#places[i] = slot + 1;
  }

  /** The first slot held under `hash` that `match` accepts; -1 when none does. */
  find(hash: number, match: (slot: number) => boolean): number {
    const mask = (1 << this.#bits) - 1;
    for (let i = this.#home(hash); this.#places[i] !== 0; i = (i + 1) & mask) {
      const slot = this.#places[i]! - 1;
      if (this.hashOf(slot) === hash && match(slot)) return slot;
    }
    return -1;
  }

  delete(slot: number): void {
    const mask = (1 << this.#bits) - 1;
    let i = this.#home(this.hashOf(slot));
    while (this.#places[i] !== slot + 1) {
      if (this.#places[i] === 0) return;
      i = (i + 1) & mask;
    }
    // Shift back every later entry of the chain that may sit at the freed place.
    for (let j = (i + 1) & mask; this.#places[j] !== 0; j = (j + 1) & mask) {
      const home = this.#home(this.hashOf(this.#places[j]! - 1));
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (!stays) {
        this.#places[i] = this.#places[j]!;
        i = j;
      }
    }
    this.#places[i] = 0;
    this.#size--;
  }

  #rehash(bits: number): void {
    const old = this.#places;
    this.#bits = bits;
    this.#places = new Int32Array(1 << bits);
    for (const v of old) if (v !== 0) this.#place(v - 1);
  }
}

export interface TableParts {
  places: Int32Array;
  bits: number;
  size: number;
}

/** Strings that repeat (statuses, ticket types, who admitted), each kept once and named by a number. */
export class Interned {
  readonly #ids = new Map<string, number>();
  readonly #strings: string[] = [];

  id(s: string): number {
    let n = this.#ids.get(s);
    if (n === undefined) {
      n = this.#strings.length;
      this.#strings.push(s);
      this.#ids.set(s, n);
    }
    return n;
  }

  string(n: number): string {
    return this.#strings[n]!;
  }

  get all(): readonly string[] {
    return this.#strings;
  }

  static from(strings: readonly string[]): Interned {
    const interned = new Interned();
    for (const s of strings) interned.id(s);
    return interned;
  }
}
