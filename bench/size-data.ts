// The shape of `npm run bench:size`'s data, decided here and nowhere else: how many
// registrations each event gets, which events are paid or team events, when each sells, and
// which status each registration has. All of it is a function of the options and of the
// registration's number within its event (g, from 1), so the counts the loader writes are
// known in advance (and tested: test/bench/size-bench.test.ts). bench/size-load.ts and
// bench/size-ref.ts turn it into SQL; the random parts (ids, the second within a sale's slot,
// who came through the door) change nothing that is counted.

export interface SizeOptions {
  registrations: number;
  events: number;
  /** Organiser accounts; event i belongs to account i mod accounts. */
  accounts: number;
}

export const SIZE_DEFAULTS: SizeOptions = { registrations: 10_000_000, events: 10_000, accounts: 4 };

/** Event i's weight is 1 / (i + SPREAD_OFFSET): a few big events, a long tail of small ones. */
export const SPREAD_OFFSET = 10;

export type EventKind = 'free' | 'paid' | 'team';

/** Three events in ten are paid (₹499, with a question), one is a team event (up to 4 people, free), the rest free. */
export function kindOf(i: number): EventKind {
  const r = i % 10;
  if (r === 0 || r === 3 || r === 6) return 'paid';
  if (r === 9) return 'team';
  return 'free';
}

export const PRICE_PAISE = 49_900;
export const TEAM_MAX = 4;

/** A registration's status by g mod 100: [from, to) of that remainder. */
export const STATUS_BUCKETS: Record<'paid' | 'free', { status: string; from: number; to: number }[]> = {
  paid: [
    { status: 'confirmed', from: 0, to: 84 },
    { status: 'pending', from: 84, to: 87 },
    { status: 'cancelled', from: 87, to: 93 },
    { status: 'refunded', from: 93, to: 100 },
  ],
  free: [
    { status: 'confirmed', from: 0, to: 92 },
    { status: 'cancelled', from: 92, to: 100 },
  ],
};

export const bucketsOf = (kind: EventKind) => STATUS_BUCKETS[kind === 'paid' ? 'paid' : 'free'];

/** People on registration g of a team event (1 to TEAM_MAX); 1 elsewhere. */
export const quantityOf = (kind: EventKind, g: number) => (kind === 'team' ? 1 + (g % TEAM_MAX) : 1);

/** How many g in 1..n have from ≤ g mod 100 < to. */
export function countInBucket(n: number, from: number, to: number): number {
  const whole = Math.floor(n / 100) * (to - from);
  const rest = n % 100; // g = 100k+1 … 100k+rest have remainders 1 … rest
  let extra = 0;
  for (let r = 1; r <= rest; r++) if (r >= from && r < to) extra++;
  return whole + extra;
}

/** Registrations per event: weights 1 / (i + SPREAD_OFFSET), rounded by largest remainder so they sum to exactly `registrations`. */
export function eventSizes(registrations: number, events: number): number[] {
  const weights = Array.from({ length: events }, (_, i) => 1 / (i + SPREAD_OFFSET));
  const total = weights.reduce((s, w) => s + w, 0);
  const exact = weights.map((w) => (registrations * w) / total);
  const sizes = exact.map(Math.floor);
  let left = registrations - sizes.reduce((s, n) => s + n, 0);
  const order = exact
    .map((x, i) => ({ i, frac: x - Math.floor(x) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % events, left--) sizes[order[k]!.i]!++;
  return sizes;
}

const DAY = 86_400_000;

/** One event of the plan: who owns it, what it is, how many register and when. */
export interface PlannedEvent {
  index: number;
  account: number;
  kind: EventKind;
  registrations: number;
  createdAt: Date;
  startAt: Date;
  /** When its sales stop: its start, or now for an event still to come. */
  salesEnd: Date;
  /** 0 (no limit) for one event in seven, else room for every seat sold and a quarter more. */
  capacity: number;
}

/** Event i went on sale 30 to 365 days ago (spread by a fixed stride) and starts 60 days after. */
export function planEvents(o: SizeOptions, now: Date): PlannedEvent[] {
  const sizes = eventSizes(o.registrations, o.events);
  return sizes.map((n, i) => {
    const kind = kindOf(i);
    const createdAt = new Date(now.getTime() - (30 + ((i * 7919) % 336)) * DAY);
    const startAt = new Date(createdAt.getTime() + 60 * DAY);
    const seats = kind === 'team' ? Math.ceil(n * 2.5) : n;
    return {
      index: i,
      account: i % o.accounts,
      kind,
      registrations: n,
      createdAt,
      startAt,
      salesEnd: startAt < now ? startAt : now,
      capacity: i % 7 === 3 ? 0 : Math.max(50, Math.ceil((seats * 1.25) / 50) * 50),
    };
  });
}

/** The registrations of one event sold in a window of time: g from gFrom to gTo (inclusive). */
export interface WindowPart {
  event: PlannedEvent;
  gFrom: number;
  gTo: number;
}

/**
 * The timeline cut into windows of about `rows` registrations each (equal lengths of time from
 * the first sale to the last), each with the part of every event it holds: registration g of
 * an event of n sells in the slot that starts at createdAt + (g − 1) × (salesEnd − createdAt) / n,
 * and belongs to the window that slot starts in. Loaded window after window, in time order,
 * rows lie on disk as the service writes them: a big event's bookings among everyone else's.
 */
export function windows(events: readonly PlannedEvent[], rows: number): WindowPart[][] {
  const total = events.reduce((s, e) => s + e.registrations, 0);
  const count = Math.max(1, Math.ceil(total / rows));
  const start = Math.min(...events.map((e) => e.createdAt.getTime()));
  const end = Math.max(...events.map((e) => e.salesEnd.getTime()));
  const out: WindowPart[][] = Array.from({ length: count }, () => []);
  for (const e of events) {
    const from = e.createdAt.getTime();
    const length = e.salesEnd.getTime() - from;
    const n = e.registrations;
    // How many of the event's slots start before boundary j (0 before the first window, n after the last).
    const before = (j: number) =>
      j === 0
        ? 0
        : j === count
          ? n
          : Math.min(n, Math.max(0, Math.ceil(((start + ((end - start) * j) / count - from) * n) / length)));
    for (let j = 0; j < count; j++) {
      const gFrom = before(j) + 1;
      const gTo = before(j + 1);
      if (gTo >= gFrom) out[j]!.push({ event: e, gFrom, gTo });
    }
  }
  return out.filter((w) => w.length > 0);
}

/** What a plan loads, counted from the rules above. */
export interface ExpectedCounts {
  registrations: number;
  events: number;
  byStatus: Record<string, number>;
  /** People on registrations (attendees rows). */
  attendees: number;
}

export function expectedCounts(events: readonly PlannedEvent[]): ExpectedCounts {
  const byStatus: Record<string, number> = {};
  let attendees = 0;
  for (const e of events) {
    for (const b of bucketsOf(e.kind))
      byStatus[b.status] = (byStatus[b.status] ?? 0) + countInBucket(e.registrations, b.from, b.to);
    attendees += peopleOf(e);
  }
  return {
    registrations: events.reduce((s, e) => s + e.registrations, 0),
    events: events.length,
    byStatus,
    attendees,
  };
}

/** People on an event's registrations: n, or for a team event Σ quantityOf(g). */
export function peopleOf(e: Pick<PlannedEvent, 'kind' | 'registrations'>): number {
  if (e.kind !== 'team') return e.registrations;
  const n = e.registrations;
  const cycle = (TEAM_MAX * (TEAM_MAX + 1)) / 2; // g mod 4 = 1, 2, 3, 0 → 2, 3, 4, 1
  let sum = Math.floor(n / TEAM_MAX) * cycle;
  for (let g = Math.floor(n / TEAM_MAX) * TEAM_MAX + 1; g <= n; g++) sum += quantityOf('team', g);
  return sum;
}

/** The SQL of a registration's status from g and whether its event is paid (the same buckets). */
export function statusSql(g: string, paid: string): string {
  const cases = (kind: 'paid' | 'free') =>
    `case ${STATUS_BUCKETS[kind].map((b) => `when ${g} % 100 < ${b.to} then '${b.status}'`).join(' ')} end`;
  return `(case when ${paid} then ${cases('paid')} else ${cases('free')} end)`;
}

/** The SQL of a registration's people from g and whether its event is a team event. */
export const quantitySql = (g: string, team: string) =>
  `(case when ${team} then 1 + (${g} % ${TEAM_MAX}) else 1 end)`;
