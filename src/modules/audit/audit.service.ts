// The audit log (docs/decisions/17-the-organisers-office.md): every change a person, an API key or a door pass
// makes is appended here by the state-change function that makes it, inside its
// transaction, never by a route. Before/after are short and carry no secret: key hashes,
// signing secrets, password hashes and tokens are dropped by `redact` whoever passes them.
import type { AuditActorKind, Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import { badRequest } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { pageOf } from '../../http/paging.js';
import * as repo from './audit.repo.js';

export interface AuditActor {
  kind: AuditActorKind;
  id: string;
  /** How people see it: an email, a key's prefix, a door pass's label. */
  display: string;
}

/** The system itself (an expiry, a sweep): recorded so a change never appears from nowhere. */
export const systemActor = (reason: string): AuditActor => ({ kind: 'system', id: reason, display: reason });

/**
 * The actor behind a key principal: the dashboard acts for its signed-in organiser
 * (`keyId: 'dashboard'`), a door pass as `door:<passId>`, anything else is an API key
 * (its prefix is shown when the log is read).
 */
export function actorOfKey(
  p: { userId: string; keyId: string; personId?: string },
  userDisplay?: string,
): AuditActor {
  // The person signed in to the dashboard, not the organisation they act for (§25).
  if (p.keyId === 'dashboard')
    return { kind: 'user', id: p.personId ?? p.userId, display: userDisplay ?? 'dashboard' };
  if (p.keyId.startsWith('door:')) return { kind: 'door_pass', id: p.keyId.slice(5), display: 'door pass' };
  return { kind: 'key', id: p.keyId, display: p.keyId };
}

/** The actor behind a signed-in session: staff act as staff, anyone else as the person signed in. */
export function actorOfSession(
  s: { userId: string; personId?: string; email: string; isStaff: boolean },
  asStaff = false,
): AuditActor {
  return { kind: asStaff && s.isStaff ? 'staff' : 'user', id: s.personId ?? s.userId, display: s.email };
}

export interface AuditChange {
  accountId: string;
  mode: Mode;
  actor: AuditActor;
  /** What was done, `<target>.<verb>`: `event.publish`, `registration.refund`, `key.revoke`, … */
  action: string;
  target: { type: string; id: string };
  before?: Record<string, unknown> | null | undefined;
  after?: Record<string, unknown> | null | undefined;
}

/** Names never kept in before/after, at any depth. */
const SECRET = /secret|password|hash|token|^key$|signature/i;

/** A copy without secrets (see SECRET) and without undefined values. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET.test(k) || v === undefined) continue;
    out[k] = redact(v);
  }
  return out;
}

/** The fields of `before` and `after` that differ (compared as JSON), so an entry stays short. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(redact(before[k]) ?? null) === JSON.stringify(redact(after[k]) ?? null)) continue;
    b[k] = before[k] ?? null;
    a[k] = after[k] ?? null;
  }
  return { before: b, after: a };
}

/** Appends one change, inside the transaction that makes it. */
export async function recordChange(
  trx: Db,
  deps: { clock: Clock; ids: Ids },
  change: AuditChange,
): Promise<void> {
  await repo.insertEntry(trx, entryRow(deps, change));
}

/** The row one change appends (redacted); the one-statement free booking writes it in its own statement. */
export function entryRow(deps: { clock: Clock; ids: Ids }, change: AuditChange): AuditEntryRow {
  return {
    id: deps.ids.make('aud', 16),
    account_id: change.accountId,
    mode: change.mode,
    actor_kind: change.actor.kind,
    actor_id: change.actor.id,
    actor_display: change.actor.display,
    action: change.action,
    target_type: change.target.type,
    target_id: change.target.id,
    before: change.before == null ? null : JSON.stringify(redact(change.before)),
    after: change.after == null ? null : JSON.stringify(redact(change.after)),
    at: deps.clock.now(),
  };
}

export type AuditEntryRow = Omit<repo.AuditRow, 'seq' | 'before' | 'after'> & {
  before: string | null;
  after: string | null;
};

export interface AuditEntryView {
  id: string;
  at: string;
  actor: AuditActor;
  action: string;
  target: { type: string; id: string };
  before: unknown;
  after: unknown;
}

/** Key ids → their display prefixes (the keys module's, injected). */
export type DescribeKeys = (db: Db, keyIds: readonly string[]) => Promise<Map<string, string>>;
/** User ids → their emails (the accounts module's, injected): the organiser acting in the dashboard. */
export type DescribeUsers = (db: Db, userIds: readonly string[]) => Promise<Map<string, string>>;

export function parseCursor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,18}$/.test(value))
    throw badRequest('invalid_cursor', 'startingAfter must be a nextCursor this list gave');
  return value;
}

/** One page of an account's log in one mode, newest first, filtered by target and action. */
export async function listChanges(
  db: Db,
  describe: { keys: DescribeKeys; users: DescribeUsers },
  f: Omit<repo.AuditFilter, 'beforeSeq' | 'limit'> & { startingAfter?: string | undefined; limit: number },
): Promise<{ items: AuditEntryView[]; hasMore: boolean; nextCursor: string | null }> {
  const rows = await repo.listEntries(db, {
    ...f,
    beforeSeq: parseCursor(f.startingAfter),
    limit: f.limit + 1,
  });
  const page = pageOf(rows, f.limit, (r) => String(r.seq));
  const ids = (kind: string) => [
    ...new Set(page.items.filter((r) => r.actor_kind === kind).map((r) => r.actor_id)),
  ];
  const prefixes = await describe.keys(db, ids('key'));
  const emails = await describe.users(db, ids('user'));
  const display = (r: repo.AuditRow) =>
    (r.actor_kind === 'key'
      ? prefixes.get(r.actor_id)
      : r.actor_kind === 'user'
        ? emails.get(r.actor_id)
        : undefined) ?? r.actor_display;
  return {
    ...page,
    items: page.items.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: { kind: r.actor_kind, id: r.actor_id, display: display(r) },
      action: r.action,
      target: { type: r.target_type, id: r.target_id },
      before: r.before,
      after: r.after,
    })),
  };
}

/** One entry of a target's history: when, who (as recorded), what, and what it changed. */
export interface HistoryEntry {
  at: Date;
  actor: AuditActor;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A target's entries oldest first (at most `limit`, 200 by default): what a registration's history is drawn from. */
export async function historyOf(
  db: Db,
  target: { accountId: string; mode: Mode; type: string; id: string },
  limit = 200,
): Promise<HistoryEntry[]> {
  const rows = await repo.entriesOfTarget(db, {
    accountId: target.accountId,
    mode: target.mode,
    targetType: target.type,
    targetId: target.id,
    limit,
  });
  const obj = (v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  return rows.map((r) => ({
    at: r.at,
    actor: { kind: r.actor_kind, id: r.actor_id, display: r.actor_display },
    action: r.action,
    before: obj(r.before),
    after: obj(r.after),
  }));
}
