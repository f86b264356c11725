// Accounts: signup, login, email verification, staff, organiser access. HTTP-free.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { Database } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../shared/clock.js';
import { type AppError, appError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../shared/errors.js';
import { escapeHtml } from '../../shared/html.js';
import type { Ids } from '../../shared/ids.js';
import type { LimitWindow, RateLimiter, RateLimitResult } from '../../shared/rate-limit.js';
import type { Mailer } from '../mail/mailer.js';
import * as repo from './accounts.repo.js';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { SessionSigner } from './sessions.js';

export interface AccountDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  sessions: SessionSigner;
  rateLimiter: RateLimiter;
  /** Wakes the job workers so the verification mail leaves at once. */
  jobs?: { kick(): void };
}

/** Sends the verification mail of an account's current address. */
export const verifyEmailJob = defineJob<{ userId: string }>('account.verify_email');
export const VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;
/** Failed sign-ins per account (by email, known or not) and per client address. */
export const LOGIN_ACCOUNT_LIMIT: LimitWindow = { limit: 10, windowMs: 15 * 60_000 };
export const LOGIN_ADDRESS_LIMIT: LimitWindow = { limit: 100, windowMs: 15 * 60_000 };
/** Verification mails a signed-in user may ask for. */
export const RESEND_LIMIT: LimitWindow = { limit: 3, windowMs: 60 * 60_000 };

const EMAIL_SYNTAX = /^[^\s@"<>()\[\],;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL_SYNTAX.test(e)) throw badRequest('invalid_email', 'email is not a valid address');
  return e;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface SessionAnswer {
  userId: string;
  idToken: string;
  expiresAt: string;
  emailVerified: boolean;
}

export async function signup(
  deps: AccountDeps,
  input: { email: string; password: string; name: string; phone?: string | undefined },
): Promise<SessionAnswer> {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  if (input.password.length < 10) throw badRequest('weak_password', 'password must be at least 10 characters');
  const existing = await repo.findUserByEmail(deps.db, email);
  if (existing) throw conflict('email_taken', 'an account with this email already exists');
  const userId = deps.ids.make('usr', 12);
  const passwordHash = await hashPassword(input.password);
  try {
    // The verification mail is a job committed with the account: it exists exactly when the account does.
    await deps.db.transaction().execute(async (trx) => {
      await repo.insertUser(trx, { id: userId, email, passwordHash, name, phone: input.phone?.trim() || null, createdAt: deps.clock.now() });
      await enqueue(trx, deps, verifyEmailJob, { userId });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('email_taken', 'an account with this email already exists');
    throw err;
  }
  deps.jobs?.kick();
  return { userId, ...(await deps.sessions.issue(userId)), emailVerified: false };
}

function tooManyAttempts(r: RateLimitResult, what: string): AppError {
  return appError('too_many_attempts', `${what}; retry after ${r.resetSeconds} s`, {}, {
    'retry-after': String(r.resetSeconds),
    'ratelimit-limit': String(r.limit),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(r.resetSeconds),
  });
}

/**
 * Sign-in. Each attempt is counted up front against the account (its email, whether or
 * not an account has it) and the client address, and taken back when it succeeds, so
 * concurrent guesses cannot overtake the limit. A wrong password and an unknown email
 * answer alike, in comparable time (the unknown email is checked against a dummy hash).
 */
export async function login(deps: AccountDeps, input: { email: string; password: string }, clientAddress: string): Promise<SessionAnswer> {
  const email = input.email.trim().toLowerCase();
  const now = deps.clock.now();
  // The email is hashed so that counters (in Redis too) hold no addresses.
  const buckets: [string, LimitWindow][] = [
    [`login:account:${sha256(email)}`, LOGIN_ACCOUNT_LIMIT],
    [`login:address:${clientAddress}`, LOGIN_ADDRESS_LIMIT],
  ];
  const counted: [string, LimitWindow][] = [];
  for (const [bucket, window] of buckets) {
    const r = await deps.rateLimiter.hit(bucket, now, window);
    counted.push([bucket, window]);
    if (r.count > r.limit) {
      for (const [b, w] of counted) await deps.rateLimiter.release(b, now, w);
      throw tooManyAttempts(r, 'too many failed sign-in attempts');
    }
  }
  const user = await repo.findUserByEmail(deps.db, email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
  if (!user || !ok) throw unauthorized('invalid_credentials', 'email or password is wrong');
  for (const [bucket, window] of buckets) await deps.rateLimiter.release(bucket, now, window);
  if (needsRehash(user.password_hash)) {
    await repo.setPasswordHash(deps.db, user.id, await hashPassword(input.password));
  }
  return { userId: user.id, ...(await deps.sessions.issue(user.id)), emailVerified: isEmailVerified(user) };
}

export function isEmailVerified(user: { email_verified_at: Date | null }): boolean {
  return user.email_verified_at !== null;
}

/**
 * Refuses (403 email_unverified) an account whose email is not verified yet. Live keys
 * and payouts need it; staff rights are withheld the same way.
 */
export async function requireVerifiedEmail(db: Kysely<Database>, userId: string, doing: string): Promise<void> {
  const user = await repo.findUserById(db, userId);
  if (!user || !isEmailVerified(user)) {
    throw forbidden('email_unverified', `verify your email address before you ${doing}: open the link in the verification mail, or ask for a new one with POST /auth/verify/resend`);
  }
}

export type VerifyOutcome = { ok: true } | { ok: false; code: 'invalid_verification_token' | 'verification_token_expired' | 'verification_token_used'; message: string };

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/** Uses a verification token (single use, until it expires) and marks its address verified. */
export async function verifyEmail(deps: { db: Kysely<Database>; clock: Clock }, token: string): Promise<VerifyOutcome> {
  const invalid: VerifyOutcome = { ok: false, code: 'invalid_verification_token', message: 'this verification link is not valid' };
  if (!TOKEN_SHAPE.test(token)) return invalid;
  const hash = sha256(token);
  const now = deps.clock.now();
  const used = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.consumeVerification(trx, hash, now);
    if (row) await repo.markEmailVerified(trx, row.user_id, row.email, now);
    return row;
  });
  if (used) return { ok: true };
  const row = await repo.findVerification(deps.db, hash);
  if (!row) return invalid;
  if (row.used_at !== null) return { ok: false, code: 'verification_token_used', message: 'this verification link has already been used' };
  return { ok: false, code: 'verification_token_expired', message: 'this verification link has expired; sign in and ask for a new one' };
}

/** POST /auth/verify/resend: a new mail, at most RESEND_LIMIT per hour per account. */
export async function resendVerification(deps: AccountDeps, userId: string): Promise<void> {
  const user = await getUser(deps.db, userId);
  if (isEmailVerified(user)) throw conflict('email_already_verified', 'this email address is already verified');
  const r = await deps.rateLimiter.hit(`verify-resend:${userId}`, deps.clock.now(), RESEND_LIMIT);
  if (r.count > r.limit) throw tooManyAttempts(r, `at most ${r.limit} verification mails per hour`);
  await enqueue(deps.db, deps, verifyEmailJob, { userId });
  deps.jobs?.kick();
}

/**
 * The verification mail job. The token is made here, when the mail is sent, so the
 * plain token only ever exists in the mail; a retried job makes a new one.
 */
export async function sendVerificationJob(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids; baseUrl: string; mailer: Mailer },
  payload: { userId: string },
): Promise<void> {
  const user = await repo.findUserById(deps.db, payload.userId);
  if (!user || isEmailVerified(user)) return; // deleted, or verified meanwhile
  const token = deps.ids.secret(32);
  const now = deps.clock.now();
  await repo.insertVerification(deps.db, { tokenHash: sha256(token), userId: user.id, email: user.email, createdAt: now, expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS) });
  await deps.mailer.send(renderVerificationMail({ baseUrl: deps.baseUrl, name: user.name, email: user.email, token }));
}

export function renderVerificationMail(m: { baseUrl: string; name: string; email: string; token: string }) {
  const link = `${m.baseUrl}/auth/verify?token=${encodeURIComponent(m.token)}`;
  const text = [
    `Hello ${m.name},`,
    '',
    `Open this link to confirm that ${m.email} is your address:`,
    '',
    link,
    '',
    'The link works once and expires in 48 hours. If you did not create an account, ignore this mail.',
  ].join('\n');
  const html =
    `<p>Hello ${escapeHtml(m.name)},</p><p>Open this link to confirm that ${escapeHtml(m.email)} is your address:</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
    '<p>The link works once and expires in 48 hours. If you did not create an account, ignore this mail.</p>';
  return { to: m.email, subject: 'Confirm your email address', text, html };
}

export async function getUser(db: Kysely<Database>, userId: string) {
  const user = await repo.findUserById(db, userId);
  if (!user) throw appError('account_not_found', 'no such account');
  return user;
}

export const findUser = (db: Kysely<Database>, userId: string) => repo.findUserById(db, userId);
export const findUsersById = (db: Kysely<Database>, ids: readonly string[]) => repo.findUsersById(db, ids);
export const findUserByEmail = (db: Kysely<Database>, email: string) => repo.findUserByEmail(db, email.trim().toLowerCase());

export async function setOrganiserAccess(db: Kysely<Database>, userId: string, canPublish: boolean) {
  if (!(await repo.setCanPublish(db, userId, canPublish))) throw notFound('no such account', 'account_not_found');
  return getUser(db, userId);
}

export const countUsers = repo.countUsers;
