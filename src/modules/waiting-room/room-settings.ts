// An event's room settings, remembered briefly by slug, so the queue's status answer reads no
// database: a change to the settings shows within SETTINGS_MEMORY_MS.
import type { OnSaleDoc } from '../../db/database.js';
import type { Mode } from '../../db/columns.js';

export const SETTINGS_MEMORY_MS = 5_000;
const MAX_REMEMBERED = 10_000;

export interface RoomEvent {
  id: string;
  accountId: string;
  mode: Mode;
  onSale: OnSaleDoc | null;
  /** The event's last day (its end, else its start), when it has one: the room is kept a while after it. */
  endsAtMs: number | null;
}

export class RoomSettings {
  readonly #load: (slug: string) => Promise<RoomEvent | undefined>;
  readonly #nowMs: () => number;
  #seen = new Map<string, { at: number; event: RoomEvent | undefined }>();

  constructor(load: (slug: string) => Promise<RoomEvent | undefined>, nowMs: () => number) {
    this.#load = load;
    this.#nowMs = nowMs;
  }

  async get(slug: string): Promise<RoomEvent | undefined> {
    const now = this.#nowMs();
    const had = this.#seen.get(slug);
    if (had && now - had.at < SETTINGS_MEMORY_MS && now >= had.at) return had.event;
    const event = await this.#load(slug);
    if (this.#seen.size >= MAX_REMEMBERED) this.#seen = new Map();
    this.#seen.set(slug, { at: now, event });
    return event;
  }
}
