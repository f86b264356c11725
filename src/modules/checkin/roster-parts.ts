// A door roster's store (roster-store.ts) as plain data (typed arrays, strings, numbers), as
// the worker thread that reads it whole (roster-worker.ts) sends it to the thread answering
// requests (roster-build.ts), its buffers moved rather than copied.
import { Interned, SlotTable, TextArena, type ArenaParts, type TableParts } from './roster-columns.js';
import { Store } from './roster-store.js';

const COLUMNS = [
  'bText',
  'bStatus',
  'bType',
  'bSub',
  'bXid',
  'bV',
  'bFirst',
  'bCount',
  'pBooking',
  'pIdx',
  'pAt',
  'pBy',
  'pXid',
  'pText',
  'pIdHash',
  'pKeyHash',
] as const;

/** A store as plain data (typed arrays, strings, numbers), as a worker thread sends it. */
export interface StoreParts {
  counts: number[];
  columns: { [C in (typeof COLUMNS)[number]]: Store[C] };
  text: ArenaParts;
  kinds: readonly string[];
  actors: readonly string[];
  byId: TableParts;
  byKey: TableParts;
  codes: [string, number][];
  oddIds: [string, number][];
}

/** The store as plain parts, to be sent to another thread: `transfer` moves its buffers instead of copying them. */
export function storeParts(store: Store): { parts: StoreParts; transfer: ArrayBuffer[] } {
  const columns = Object.fromEntries(COLUMNS.map((c) => [c, store[c]])) as StoreParts['columns'];
  const parts: StoreParts = {
    counts: [store.bookings, store.people, store.bookingSlots, store.personSlots],
    columns,
    text: store.text.parts(),
    kinds: store.kinds.all,
    actors: store.actors.all,
    byId: store.byId.parts(),
    byKey: store.byKey.parts(),
    codes: [...store.codes],
    oddIds: [...store.oddIds],
  };
  const transfer = [
    ...COLUMNS.map((c) => store[c].buffer),
    parts.text.bytes.buffer,
    parts.byId.places.buffer,
    parts.byKey.places.buffer,
  ] as ArrayBuffer[];
  return { parts, transfer };
}

/** The store the parts of `storeParts` were made from, in this thread. */
export function storeFrom(parts: StoreParts): Store {
  const s = new Store(0, 0);
  Object.assign(s, parts.columns);
  [s.bookings, s.people, s.bookingSlots, s.personSlots] = parts.counts as [number, number, number, number];
  s.text = TextArena.from(parts.text);
  s.kinds = Interned.from(parts.kinds);
  s.actors = Interned.from(parts.actors);
  s.byId = SlotTable.from((p) => s.pIdHash[p]!, parts.byId);
  s.byKey = SlotTable.from((p) => s.pKeyHash[p]!, parts.byKey);
  s.codes = new Map(parts.codes);
  s.oddIds = new Map(parts.oddIds);
  return s;
}
