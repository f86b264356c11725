// A short memory of events' seat statuses (docs/decisions/23-reserved-seating.md): a crowd of seat
// maps refreshing every few seconds costs one read of an event's taken seats per instance and
// second, not one a request. An answer is kept for SEAT_STATUS_MEMORY_MS (one second by default,
// counted on the service clock from when its read began; 0 keeps nothing), and the requests that
// arrive while a read is under way share it. This process forgets an event's answers at once when
// it changes the event's seats (holds, lets go, books, blocks, moves); another instance's changes
// show here within that time. Nothing is sold from memory: a hold takes its seats in the database.
const MAX_EVENTS = 10_000;

interface Entry<T> {
  answer: Promise<T>;
  /** Kept until then (service-clock ms); Infinity while its read is under way. */
  until: number;
}

/** Every memory of this process, so that a change made here is forgotten by all of them. */
const live = new Set<WeakRef<StatusMemory<unknown>>>();

export class StatusMemory<T> {
  /** By event, then by the caller's key (all the answer depends on: mode, plan version, clock). */
  readonly #events = new Map<string, Map<string, Entry<T>>>();

  constructor(
    readonly ms: number,
    readonly now: () => number,
  ) {
    live.add(new WeakRef(this as StatusMemory<unknown>));
  }

  /**
   * The answer for `key` of event `eventId`: the one kept, the one being read, or `read()`'s. A
   * read that fails is not kept (the requests sharing it have its error).
   */
  recall(eventId: string, key: string, read: () => Promise<T>): Promise<T> {
    if (this.ms <= 0) return read();
    const started = this.now();
    let kept = this.#events.get(eventId);
    const found = kept?.get(key);
    if (found && started < found.until) return found.answer;
    if (!kept) {
      if (this.#events.size >= MAX_EVENTS) this.#events.clear();
      kept = new Map();
      this.#events.set(eventId, kept);
    }
    for (const [k, e] of kept) if (e.until <= started) kept.delete(k);
    const entry: Entry<T> = { answer: read(), until: Number.POSITIVE_INFINITY };
    kept.set(key, entry);
    const events = this.#events;
    const ms = this.ms;
    entry.answer.then(
      () => {
        entry.until = started + ms;
      },
      () => {
        if (kept.get(key) === entry) kept.delete(key);
        if (kept.size === 0 && events.get(eventId) === kept) events.delete(eventId);
      },
    );
    return entry.answer;
  }

  /** Forgets the event's answers (every event's with none), reads under way included: their requests still have them. */
  forget(eventId?: string): void {
    if (eventId === undefined) this.#events.clear();
    else this.#events.delete(eventId);
  }
}

/** An event's statuses as `GET /api/v1/events/{id}/seats/statuses` answers them. */
export interface StatusLetters {
  planId: string;
  planUpdatedAt: string;
  counts: { available: number; held: number; sold: number; blocked: number };
  statuses: string;
}
export type SeatStatuses = StatusMemory<StatusLetters>;

/** Every memory in this process forgets the event's answers (every event's with none): this process changed its seats. */
export function forgetStatuses(eventId?: string): void {
  for (const ref of live) {
    const memory = ref.deref();
    if (memory) memory.forget(eventId);
    else live.delete(ref);
  }
}
