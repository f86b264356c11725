// Password reset and change, and ending an account's sessions: the account's credentials
// after sign-up. HTTP-free; the mails they send are in accounts.mails.ts.
import { enqueue } from '../../jobs/queue.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import type { Db } from '../../lib/db-handle.js';
import * as repo from './accounts.repo.js';
import {
  accountBucket,
  type AccountDeps,
  CHANGE_LIMIT,
  getUser,
  isEmailVerified,
  LOGIN_ACCOUNT_LOCK,
  normaliseEmail,
  passwordNoticeJob,
  passwordResetJob,
  RESET_MAIL_LIMIT,
  type SessionAnswer,
  sha256,
  TOKEN_SHAPE,
  tooManyAttempts,
} from './accounts.service.js';
import { hashPassword, verifyPassword } from './passwords.js';

/** Ends every session of the account but the dashboard session `keep`; answers the new session epoch. */
async function endSessions(deps: AccountDeps, trx: Db, userId: string, keep?: string): Promise<number> {
  const epoch = await repo.raiseSessionEpoch(trx, userId);
  await deps.endDashboardSessions?.(trx, userId, keep);
  return epoch;
}

/**
 * POST /auth/password/forgot: for an existing account, mails a reset link (at most
 * RESET_MAIL_LIMIT an hour); the caller is told the same whatever the address.
 */
export async function forgotPassword(deps: AccountDeps, emailInput: string): Promise<void> {
  const email = normaliseEmail(emailInput);
  const user = await repo.findUserByEmail(deps.db, email);
  if (!user) return;
  const r = await deps.rateLimiter.hit(`password-forgot:${user.id}`, deps.clock.now(), RESET_MAIL_LIMIT);
  if (r.count > r.limit) return; // said the same way: the earlier mails still work
  await enqueue(deps.db, deps, passwordResetJob, { userId: user.id, reason: 'forgot' });
  deps.jobs?.kick();
}

/**
 * POST /auth/password/reset: uses the token once, sets the password, marks the address
 * verified (the mailbox proved it), lifts a sign-in lock, ends every session of the
 * account and mails a notice — in one transaction, just after clearing the failure count.
 */
export async function resetPassword(
  deps: AccountDeps,
  input: { token: string; password: string },
): Promise<void> {
  if (input.password.length < 10)
    throw badRequest('weak_password', 'password must be at least 10 characters');
  const invalid = () =>
    badRequest('invalid_reset_token', 'this password reset link is not valid; ask for a new one');
  if (!TOKEN_SHAPE.test(input.token)) throw invalid();
  const hash = sha256(input.token);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  // The failures that set the lock go with it, or the next sign-in would lock the account again (docs/decisions/20-booking-lifecycle.md).
  // Cleared before the lock is lifted: a locked account counts no failures, so none slip in between.
  const pending = await repo.findPasswordReset(deps.db, hash);
  if (pending && pending.used_at === null && pending.expires_at > now)
    await deps.rateLimiter.clear(accountBucket(pending.email), now, LOGIN_ACCOUNT_LOCK);
  const done = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.consumePasswordReset(trx, hash, now);
    if (!row) return false;
    await repo.setPasswordHash(trx, row.user_id, passwordHash);
    await repo.markEmailVerified(trx, row.user_id, row.email, now);
    await repo.clearLoginLock(trx, row.user_id);
    await repo.expirePasswordResets(trx, row.user_id, now);
    await endSessions(deps, trx, row.user_id);
    await enqueue(trx, deps, passwordNoticeJob, { userId: row.user_id, what: 'reset' });
    return true;
  });
  if (!done) {
    const row = await repo.findPasswordReset(deps.db, hash);
    if (!row) throw invalid();
    if (row.used_at !== null)
      throw badRequest(
        'invalid_reset_token',
        'this password reset link has already been used; ask for a new one',
      );
    throw badRequest(
      'invalid_reset_token',
      'this password reset link has expired (links work for 60 minutes); ask for a new one',
    );
  }
  deps.jobs?.kick();
}

/**
 * POST /auth/password/change (signed in): checks the current password, sets the new
 * one and ends every other session; answers a new idToken for the caller. A dashboard
 * caller names its own cookie session in `keep`.
 */
export async function changePassword(
  deps: AccountDeps,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  keep?: string,
): Promise<SessionAnswer> {
  const user = await getUser(deps.db, userId);
  const now = deps.clock.now();
  const r = await deps.rateLimiter.hit(`password-change:${userId}`, now, CHANGE_LIMIT);
  if (r.count > r.limit) {
    await deps.rateLimiter.release(`password-change:${userId}`, now, CHANGE_LIMIT);
    throw tooManyAttempts(r, 'too many wrong current passwords');
  }
  if (!(await verifyPassword(input.currentPassword, user.password_hash)))
    throw forbidden('wrong_password', 'the current password is wrong');
  await deps.rateLimiter.release(`password-change:${userId}`, now, CHANGE_LIMIT);
  if (input.newPassword.length < 10)
    throw badRequest('weak_password', 'the new password must be at least 10 characters');
  const passwordHash = await hashPassword(input.newPassword);
  const epoch = await deps.db.transaction().execute(async (trx) => {
    await repo.setPasswordHash(trx, userId, passwordHash);
    const e = await endSessions(deps, trx, userId, keep);
    await enqueue(trx, deps, passwordNoticeJob, { userId, what: 'changed' });
    return e;
  });
  deps.jobs?.kick();
  return { userId, ...(await deps.sessions.issue(userId, epoch)), emailVerified: isEmailVerified(user) };
}

/** POST /auth/logout-everywhere: ends every session of the account, idTokens and dashboard alike. */
export async function logoutEverywhere(deps: AccountDeps, userId: string): Promise<void> {
  await deps.db.transaction().execute((trx) => endSessions(deps, trx, userId));
}
