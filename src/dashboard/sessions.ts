// Dashboard cookie sessions. The cookie holds 256 random bits; the database holds
// only their sha256, so a leaked table opens no session, and deleting the row (sign
// out) ends the session everywhere at once. Forms carry a CSRF token that is an HMAC
// of the session under SESSION_SECRET, so a page on another site cannot forge one.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DashboardFlash, Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { Db } from '../lib/db-handle.js';
import { SESSION_TTL_SECONDS } from '../modules/accounts/sessions.js';
import * as repo from './dashboard.repo.js';

export const SESSION_COOKIE = 'svc_session';
/** Before sign-in: a random value the sign-in and sign-up forms are bound to. */
export const PRE_SESSION_COOKIE = 'svc_pre';
export const MODE_COOKIE = 'svc_mode';
export const COOKIE_PATH = '/dashboard';

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    if (!out.has(name)) out.set(name, part.slice(i + 1).trim());
  }
  return out;
}

/** `HttpOnly; Secure; SameSite=Lax` always; browsers accept Secure cookies from http://localhost too. */
export function cookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

export const clearCookie = (name: string) => cookie(name, '', 0);

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SessionDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export async function startSession(
  deps: SessionDeps,
  userId: string,
): Promise<{ token: string; maxAgeSeconds: number }> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await repo.insertSession(deps.db, {
    id_hash: hashToken(token),
    user_id: userId,
    flash: null,
    created_at: now,
    expires_at: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
  });
  return { token, maxAgeSeconds: SESSION_TTL_SECONDS };
}

export async function findSession(
  deps: SessionDeps,
  cookieHeader: string | undefined,
): Promise<{ userId: string; sessionId: string; organisationId: string | null } | undefined> {
  const token = parseCookies(cookieHeader).get(SESSION_COOKIE);
  if (token === undefined || !TOKEN_SHAPE.test(token)) return undefined;
  const row = await repo.findLiveSession(deps.db, hashToken(token), deps.clock.now());
  return row && { userId: row.user_id, sessionId: row.id_hash, organisationId: row.organisation_id };
}

/** The organisation this dashboard session works in from now on (the caller checked membership). */
export async function chooseOrganisation(db: Kysely<Database>, sessionId: string, organisationId: string) {
  await repo.setOrganisation(db, sessionId, organisationId);
}

export async function endSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await repo.deleteSession(db, sessionId);
}

/** A password reset or change, or "sign out everywhere": the user's sessions end but `keep`. */
export async function endUserSessions(db: Db, userId: string, keep?: string): Promise<void> {
  await repo.deleteUserSessions(db, userId, keep);
}

/** Expired rows are of no use to anyone; signing in sweeps the user's own. */
export async function sweepExpired(deps: SessionDeps, userId: string): Promise<void> {
  await repo.deleteExpired(deps.db, userId, deps.clock.now());
}

/**
 * A message for the next page this session sees. Never a secret: a secret shown once is
 * shown in the answer to the form that made it and stored nowhere readable.
 */
export async function setFlash(
  db: Kysely<Database>,
  sessionId: string,
  flash: Omit<DashboardFlash, 'secret'> & { secret?: never },
): Promise<void> {
  await repo.setFlash(db, sessionId, JSON.stringify(flash));
}

export async function takeFlash(db: Kysely<Database>, sessionId: string): Promise<DashboardFlash | null> {
  const flash = await repo.findFlash(db, sessionId);
  if (!flash) return null;
  await repo.setFlash(db, sessionId, null);
  return flash;
}

export function newPreSessionValue(): string {
  return randomBytes(18).toString('base64url');
}

/** The token a form carries: bound to the session (or, before sign-in, to the pre-session cookie). */
export function csrfToken(secret: string, binding: string): string {
  return createHmac('sha256', secret).update(`dashboard-form:${binding}`).digest('base64url');
}

export function csrfValid(secret: string, binding: string | undefined, given: unknown): boolean {
  if (binding === undefined || typeof given !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, binding));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
