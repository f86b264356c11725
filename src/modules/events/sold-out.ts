// A short memory of events found full, so a ticket drop's thousands of late requests
// are refused without touching the database. A mark lasts SOLD_OUT_MEMORY_MS (one
// second by default; 0 keeps no memory), and this process forgets it at once when it
// frees seats or changes capacities; other processes may refuse for up to that time
// after seats come back. Marks never let anyone in: the seat claim alone admits.
export const SOLD_OUT_MARK_MS = 1000;
const MAX_MARKS = 10_000;

export class SoldOutMarks {
  readonly #marks = new Map<string, { accountId: string; mode: string; until: number }>();

  mark(eventId: string, accountId: string, mode: string, now: number, ms: number = SOLD_OUT_MARK_MS): void {
    if (ms <= 0) return;
    if (this.#marks.size >= MAX_MARKS) this.#marks.clear();
    this.#marks.set(eventId, { accountId, mode, until: now + ms });
  }

  /** True only for the event's own account and mode, within the mark's second. */
  isSoldOut(eventId: string, accountId: string, mode: string, now: number): boolean {
    const m = this.#marks.get(eventId);
    if (!m) return false;
    if (m.until <= now) {
      this.#marks.delete(eventId);
      return false;
    }
    return m.accountId === accountId && m.mode === mode;
  }

  forget(eventId: string): void {
    this.#marks.delete(eventId);
  }
}

/** One per process: event ids are unique, so every app in the process can share it. */
export const soldOutMarks = new SoldOutMarks();
