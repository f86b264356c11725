// Whether an event has no tickets left, for the status answer's `soldOut` (docs/decisions/
// 26-a-fair-waiting-room.md): the waiting page then tells everyone still waiting at once and
// offers the waitlist. Status calls come every few seconds from every waiting browser, so the
// answer is remembered per instance and event for SOLD_OUT_CHECK_MS: PostgreSQL is read at most
// once in that time per event and instance, never per call. A booking refused for want of seats on
// this instance (the events module's sold-out mark) shows at once.
import { findEvent, isMarkedSoldOut, usageFor } from '../events/events.service.js';
import type { RoomEvent } from './room-settings.js';
import type { WaitingRoomDeps } from './waiting-room.service.js';

export const SOLD_OUT_CHECK_MS = 5_000;
const MAX_REMEMBERED = 10_000;

/** Sold out: the event has a capacity and every seat of it is taken (as the hosted page's own sold-out notice). */
export const isFull = (capacity: number, taken: number) => capacity > 0 && taken >= capacity;

export class SoldOutMemory {
  readonly #load: (eventId: string) => Promise<boolean>;
  readonly #nowMs: () => number;
  #seen = new Map<string, { at: number; soldOut: boolean }>();

  constructor(load: (eventId: string) => Promise<boolean>, nowMs: () => number) {
    this.#load = load;
    this.#nowMs = nowMs;
  }

  async get(eventId: string): Promise<boolean> {
    const now = this.#nowMs();
    const had = this.#seen.get(eventId);
    if (had && now - had.at < SOLD_OUT_CHECK_MS && now >= had.at) return had.soldOut;
    const soldOut = await this.#load(eventId);
    if (this.#seen.size >= MAX_REMEMBERED) this.#seen = new Map();
    this.#seen.set(eventId, { at: now, soldOut });
    return soldOut;
  }
}

// One memory per service (its deps), made on first use: the waiting room's deps stay as they are.
const memories = new WeakMap<WaitingRoomDeps, SoldOutMemory>();

function memoryOf(deps: WaitingRoomDeps): SoldOutMemory {
  let m = memories.get(deps);
  if (!m) {
    m = new SoldOutMemory(
      async (eventId) => {
        const ev = await findEvent(deps.db, eventId);
        return ev !== undefined && isFull(ev.capacity, (await usageFor(deps.db, eventId)).total);
      },
      () => deps.clock.now().getTime(),
    );
    memories.set(deps, m);
  }
  return m;
}

/** Whether the room's event is sold out now (as this instance last looked, within SOLD_OUT_CHECK_MS). */
export async function soldOutNow(deps: WaitingRoomDeps, ev: RoomEvent): Promise<boolean> {
  if (isMarkedSoldOut(ev.id, ev.accountId, ev.mode, deps.clock.now())) return true;
  return memoryOf(deps).get(ev.id);
}

/** The status answer with `soldOut: true` added when the event behind `slug` is sold out. */
export async function withSoldOut<T extends object>(
  deps: WaitingRoomDeps,
  slug: string,
  answer: T,
): Promise<T | (T & { soldOut: true })> {
  const ev = await deps.settings.get(slug);
  return ev && (await soldOutNow(deps, ev)) ? { ...answer, soldOut: true as const } : answer;
}
