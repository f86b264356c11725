// An account's clock: in live mode the service clock; in test mode the service clock plus
// the account's sandbox offset, moved forward to try renewals and expiry without waiting.
// Every module that asks what time it is for an account asks here, and a test-mode row's
// times (an offer's expiry, an order's check time) are on its account's clock.
import { sql, type RawBuilder } from 'kysely';
import type { Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import * as repo from './account-clock.repo.js';

const DAY_MS = 86_400_000;

/** This account's clock: in test mode, the service clock plus the account's sandbox offset. */
export async function nowFor(deps: { db: Db; clock: Clock }, accountId: string, mode: Mode): Promise<Date> {
  const now = deps.clock.now();
  if (mode !== 'test') return now;
  const offset = await repo.clockOffset(deps.db, accountId);
  return offset === undefined ? now : new Date(now.getTime() + offset);
}

/** How far this account's clock is ahead of the service clock, in ms: 0 in live mode or when never moved. */
export async function clockOffset(deps: { db: Db }, accountId: string, mode: Mode): Promise<number> {
  return mode === 'test' ? ((await repo.clockOffset(deps.db, accountId)) ?? 0) : 0;
}

/** This account's clock as a Clock (the offset read once): for rules that take a Clock. */
export async function clockFor(
  deps: { db: Db; clock: Clock },
  accountId: string,
  mode: Mode,
): Promise<Clock> {
  if (mode !== 'test') return deps.clock;
  const offset = (await repo.clockOffset(deps.db, accountId)) ?? 0;
  return offset === 0 ? deps.clock : { now: () => new Date(deps.clock.now().getTime() + offset) };
}

/**
 * For one query over many accounts' rows (a sweep): the moved test clocks, a sub-query of
 * (account_id, offset_ms) named `moved_clock`, to join on a test-mode row's account (an account
 * whose clock was never moved, or was put back, has no row) …
 */
export const movedClocks = (db: Db) => repo.clockOffsets(db).as('moved_clock');

/** … and a service-clock time `at` on the clock of the account joined as `moved_clock`. */
export function onMovedClock(at: Date): RawBuilder<Date> {
  return sql<Date>`${at}::timestamptz + ${sql.ref('moved_clock.offset_ms')} * interval '1 millisecond'`;
}

export interface TestClock {
  now: Date;
  offsetDays: number;
}

/** Moves an account's test clock forward, cumulatively. */
export async function advanceClock(
  deps: { db: Db; clock: Clock },
  accountId: string,
  days: number,
): Promise<TestClock> {
  await repo.advanceClock(deps.db, accountId, Math.round(days * DAY_MS));
  const now = await nowFor(deps, accountId, 'test');
  return { now, offsetDays: (now.getTime() - deps.clock.now().getTime()) / DAY_MS };
}

/** Puts an account's test clock back to the service clock. */
export async function resetClock(deps: { db: Db; clock: Clock }, accountId: string): Promise<TestClock> {
  await repo.resetClock(deps.db, accountId);
  return { now: deps.clock.now(), offsetDays: 0 };
}
