// Accounts: signup, login, email verification, staff, organiser access (password reset and
// change are in password-changes.ts). HTTP-free. The mails these send are in accounts.mails.ts.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Database } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { type AppError, appError, badRequest, conflict, forbidden } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import type { LimitWindow, RateLimiter, RateLimitResult } from '../../http/rate-limit.js';
import type { Db } from '../../lib/db-handle.js';
import * as repo from './accounts.repo.js';
import { hashPassword } from './passwords.js';
import type { SessionSigner } from './sessions.js';

export interface AccountDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  sessions: SessionSigner;
  rateLimiter: RateLimiter;
  /** Wakes the job workers so the verification mail leaves at once. */
  jobs?: { kick(): void };
  /**
   * SESSION_SECRET signs the device cookie; SIGNUP_LIMIT_PER_HOUR and VERIFY_MAIL_LIMIT_PER_HOUR
   * bound sign-ups per client address and verification mails per email address.
   */
  config: { sessionSecret: string; signupLimitPerHour: number; verifyMailLimitPerHour: number };
  /**
   * Deletes the account's dashboard (cookie) sessions but `keep`, in the caller's
   * transaction. The dashboard owns those sessions; the composition root wires this in.
   */
  endDashboardSessions?: (db: Db, userId: string, keep?: string) => Promise<void>;
}

/** Sends the verification mail of an account's current address. */
export const verifyEmailJob = defineJob<{ userId: string }>('account.verify_email');
export const VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;
/**
 * Failed sign-ins (docs/decisions/14-trust-and-safety-second-round.md): per (account, client address) — or per
 * (account, device) for a browser that signed in to it before — 10 in 15 minutes; per
 * client address over any accounts 100; per account from everywhere 100, past which
 * sign-in needs the password reset link. An account is its email, known or not.
 */
export const LOGIN_PAIR_LIMIT: LimitWindow = { limit: 10, windowMs: 15 * 60_000 };
export const LOGIN_ADDRESS_LIMIT: LimitWindow = { limit: 100, windowMs: 15 * 60_000 };
export const LOGIN_ACCOUNT_LOCK: LimitWindow = { limit: 100, windowMs: 15 * 60_000 };
/** The account-wide failure counter that sets the lock (login counts it, a password reset clears it). */
export const accountBucket = (email: string) => `login:account:${sha256(email)}`;
/** Password reset links: valid 60 minutes, single use; at most 3 mailed per hour per account. */
export const RESET_TTL_MS = 60 * 60 * 1000;
export const RESET_MAIL_LIMIT: LimitWindow = { limit: 3, windowMs: 60 * 60_000 };
/** Wrong current passwords on a password change, per account. */
export const CHANGE_LIMIT: LimitWindow = { limit: 10, windowMs: 15 * 60_000 };
/** Mails the reset link (`forgot`: asked for; `locked`: sign-in was locked after too many failures). */
export const passwordResetJob = defineJob<{ userId: string; reason: 'forgot' | 'locked' }>(
  'account.password_reset',
);
/**
 * A security notice to the person: the password was set (`reset`) or changed (`changed`) and
 * every other session ended; two-factor sign-in was turned off; a recovery code signed them in.
 */
export type AccountNotice = 'reset' | 'changed' | 'two_factor_off' | 'recovery_code_used';
export const passwordNoticeJob = defineJob<{ userId: string; what: AccountNotice; codesLeft?: number }>(
  'account.password_notice',
);
const HOUR_MS = 60 * 60_000;
/**
 * Sign-ups per client address (an IPv6 client by its /64) in an hour: each costs a password
 * hash and mails an address nobody has proved yet.
 */
export const signupWindow = (config: AccountDeps['config']): LimitWindow => ({
  limit: config.signupLimitPerHour,
  windowMs: HOUR_MS,
});
/** Verification mails to one email address in an hour, the sign-up's own and every resend, whichever account asked. */
export const verifyMailWindow = (config: AccountDeps['config']): LimitWindow => ({
  limit: config.verifyMailLimitPerHour,
  windowMs: HOUR_MS,
});
/** Hashed, so that counters (in Redis too) hold no addresses. */
const verifyMailBucket = (email: string) => `verify-mail:${sha256(email.toLowerCase())}`;

const EMAIL_SYNTAX =
  /^[^\s@"<>()\[\],;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL_SYNTAX.test(e))
    throw badRequest('invalid_email', 'email is not a valid address');
  return e;
}

/** How tokens are kept: only their hash is stored. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface SessionAnswer {
  userId: string;
  idToken: string;
  expiresAt: string;
  emailVerified: boolean;
}

/**
 * Sign-up. `clientAddress` (the address key of the caller) is limited to SIGNUP_LIMIT_PER_HOUR
 * attempts that pass the form's checks, refused with 429 `too_many_signups` beyond.
 */
export async function signup(
  deps: AccountDeps,
  input: { email: string; password: string; name: string; phone?: string | undefined },
  context: { clientAddress?: string } = {},
): Promise<SessionAnswer> {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (name === '') throw badRequest('invalid_name', 'name must not be empty');
  if (input.password.length < 10)
    throw badRequest('weak_password', 'password must be at least 10 characters');
  const now = deps.clock.now();
  if (context.clientAddress !== undefined) {
    const r = await deps.rateLimiter.hit(`signup:${context.clientAddress}`, now, signupWindow(deps.config));
    if (r.count > r.limit)
      throw limited('too_many_signups', r, `at most ${r.limit} sign-ups an hour from one address`);
  }
  const existing = await repo.findUserByEmail(deps.db, email);
  if (existing) throw conflict('email_taken', 'an account with this email already exists');
  const userId = deps.ids.make('usr', 12);
  const passwordHash = await hashPassword(input.password);
  // The address's hourly verification mails: past them the account is made without its mail
  // (a resend once the hour has passed sends one).
  const mail = await deps.rateLimiter.hit(verifyMailBucket(email), now, verifyMailWindow(deps.config));
  try {
    // The verification mail is a job committed with the account.
    await deps.db.transaction().execute(async (trx) => {
      await repo.insertUser(trx, {
        id: userId,
        email,
        passwordHash,
        name,
        phone: input.phone?.trim() || null,
        createdAt: now,
      });
      if (mail.count <= mail.limit) await enqueue(trx, deps, verifyEmailJob, { userId });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('email_taken', 'an account with this email already exists');
    throw err;
  }
  deps.jobs?.kick();
  return { userId, ...(await deps.sessions.issue(userId)), emailVerified: false };
}

export function tooManyAttempts(r: RateLimitResult, what: string): AppError {
  return limited('too_many_attempts', r, what);
}

function limited(code: 'too_many_attempts' | 'too_many_signups', r: RateLimitResult, what: string): AppError {
  return appError(
    code,
    `${what}; retry after ${r.resetSeconds} s`,
    {},
    {
      'retry-after': String(r.resetSeconds),
      'ratelimit-limit': String(r.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(r.resetSeconds),
    },
  );
}

export function passwordResetRequired(): AppError {
  return forbidden(
    'password_reset_required',
    'sign-in to this account is locked after too many failed attempts from many addresses; use the password reset link mailed to its address, or ask for a new one',
  );
}

export function isEmailVerified(user: { email_verified_at: Date | null }): boolean {
  return user.email_verified_at !== null;
}

/**
 * Refuses (403 email_unverified) an account whose email is not verified yet. Live keys
 * and payouts need it; staff rights are withheld the same way.
 */
export async function requireVerifiedEmail(
  db: Kysely<Database>,
  userId: string,
  doing: string,
): Promise<void> {
  const user = await repo.findUserById(db, userId);
  if (!user || !isEmailVerified(user)) {
    throw forbidden(
      'email_unverified',
      `verify your email address before you ${doing}: open the link in the verification mail, or ask for a new one with POST /auth/verify/resend`,
    );
  }
}

export type VerifyOutcome =
  | { ok: true }
  | {
      ok: false;
      code:
        | 'invalid_verification_token'
        | 'verification_token_expired'
        | 'verification_token_used'
        | 'session_required';
      message: string;
    };

export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * Uses a verification token (single use, until it expires) and marks its address
 * verified — only for `userId`, the account whose own session sent it: a token issued
 * to another account answers `session_required` and changes nothing.
 */
export async function verifyEmail(
  deps: { db: Kysely<Database>; clock: Clock },
  token: string,
  userId: string,
): Promise<VerifyOutcome> {
  const invalid: VerifyOutcome = {
    ok: false,
    code: 'invalid_verification_token',
    message: 'this verification link is not valid',
  };
  if (!TOKEN_SHAPE.test(token)) return invalid;
  const hash = sha256(token);
  const now = deps.clock.now();
  const used = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.consumeVerification(trx, hash, userId, now);
    if (row) await repo.markEmailVerified(trx, row.user_id, row.email, now);
    return row;
  });
  if (used) return { ok: true };
  const row = await repo.findVerification(deps.db, hash);
  if (!row) return invalid;
  if (row.user_id !== userId)
    return {
      ok: false,
      code: 'session_required',
      message: 'this link was sent for another account: sign in to that account to confirm it',
    };
  if (row.used_at !== null)
    return {
      ok: false,
      code: 'verification_token_used',
      message: 'this verification link has already been used',
    };
  return {
    ok: false,
    code: 'verification_token_expired',
    message: 'this verification link has expired; sign in and ask for a new one',
  };
}

/** POST /auth/verify/resend: a new mail, within VERIFY_MAIL_LIMIT_PER_HOUR per email address (the sign-up's mail included). */
export async function resendVerification(deps: AccountDeps, userId: string): Promise<void> {
  const user = await getUser(deps.db, userId);
  if (isEmailVerified(user))
    throw conflict('email_already_verified', 'this email address is already verified');
  const r = await deps.rateLimiter.hit(
    verifyMailBucket(user.email),
    deps.clock.now(),
    verifyMailWindow(deps.config),
  );
  if (r.count > r.limit)
    throw tooManyAttempts(
      r,
      `at most ${r.limit} verification mails per hour to one address, the sign-up's own included`,
    );
  await enqueue(deps.db, deps, verifyEmailJob, { userId });
  deps.jobs?.kick();
}

export async function getUser(db: Kysely<Database>, userId: string) {
  const user = await repo.findUserById(db, userId);
  if (!user) throw appError('account_not_found', 'no such account');
  return user;
}

export const findUser = (db: Kysely<Database>, userId: string) => repo.findUserById(db, userId);
export const findUsersById = (db: Kysely<Database>, ids: readonly string[]) => repo.findUsersById(db, ids);
/** User ids → emails (the audit log shows the organiser acting in the dashboard by them). */
export async function emailsOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  return new Map((await repo.findUsersById(db, ids)).map((u) => [u.id, u.email]));
}
export const findUserByEmail = (db: Kysely<Database>, email: string) =>
  repo.findUserByEmail(db, email.trim().toLowerCase());

/** Staff grant or remove publishing; the audit log of the account gets the change with the staff member. */
export const countUsers = repo.countUsers;
