// Test mode's stand-ins: each test account's clock (moved forward to try renewals and
// expiry without waiting) and the mails test mode kept instead of sending.
import type { Mode } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import type { Db } from '../../shared/db-handle.js';
import * as repo from './sandbox.repo.js';
import { decodeCursor, pageOf } from '../../shared/keyset-cursor.js';

const DAY_MS = 86_400_000;

/** This account's clock: in test mode, the service clock plus the account's sandbox offset. */
export async function nowFor(deps: { db: Db; clock: Clock }, accountId: string, mode: Mode): Promise<Date> {
  const now = deps.clock.now();
  if (mode !== 'test') return now;
  const offset = await repo.clockOffset(deps.db, accountId);
  return offset === undefined ? now : new Date(now.getTime() + offset);
}

export interface TestClock {
  now: Date;
  offsetDays: number;
}

/** Moves an account's test clock forward, cumulatively. */
export async function advanceClock(deps: { db: Db; clock: Clock }, accountId: string, days: number): Promise<TestClock> {
  await repo.advanceClock(deps.db, accountId, Math.round(days * DAY_MS));
  const now = await nowFor(deps, accountId, 'test');
  return { now, offsetDays: (now.getTime() - deps.clock.now().getTime()) / DAY_MS };
}

/** Puts an account's test clock back to the service clock. */
export async function resetClock(deps: { db: Db; clock: Clock }, accountId: string): Promise<TestClock> {
  await repo.resetClock(deps.db, accountId);
  return { now: deps.clock.now(), offsetDays: 0 };
}

/** The newest mails test mode kept for an account, as the API shows them. */
export async function keptEmails(db: Db, accountId: string, limit: number) {
  const rows = await repo.listEmails(db, accountId, limit);
  return rows.map((r) => ({ id: r.id, to: r.recipients, subject: r.subject, text: r.text, attachments: r.attachments, createdAt: r.created_at.toISOString() }));
}

/** Kept mails are pruned by the workers after this long. */
export const SANDBOX_MAIL_RETENTION_MS = 30 * 86_400_000;

export function pruneKeptEmails(db: Db, now: Date): Promise<number> {
  return repo.pruneEmails(db, new Date(now.getTime() - SANDBOX_MAIL_RETENTION_MS));
}

/** One page of the mails test mode kept, newest first; `count` is the total kept. */
export async function pageKeptEmails(db: Db, accountId: string, page: { limit: number; startingAfter?: string | undefined }) {
  const rows = await repo.pageEmails(db, accountId, page.limit, decodeCursor(page.startingAfter));
  const out = pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
  return {
    items: out.items.map((r) => ({ id: r.id, to: r.recipients, subject: r.subject, text: r.text, attachments: r.attachments, createdAt: r.created_at.toISOString() })),
    hasMore: out.hasMore,
    nextCursor: out.nextCursor,
    count: await repo.countEmails(db, accountId),
  };
}
