// The accounts module's mails and their jobs: the address verification, the password reset
// link and the notice after a password change. A token is made when its mail is sent, so the
// plain token only ever exists in the mail; a retried job makes a new one.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { escapeHtml } from '../../lib/html.js';
import type { Ids } from '../../lib/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';
import * as repo from './accounts.repo.js';
import {
  type AccountNotice,
  isEmailVerified,
  RESET_TTL_MS,
  sha256,
  VERIFICATION_TTL_MS,
} from './accounts.service.js';

type MailDeps = { db: Kysely<Database>; clock: Clock; ids: Ids; baseUrl: string; mailer: Mailer };

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
  await repo.insertVerification(deps.db, {
    tokenHash: sha256(token),
    userId: user.id,
    email: user.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS),
  });
  await deps.mailer.send(
    renderVerificationMail({ baseUrl: deps.baseUrl, name: user.name, email: user.email, token }),
  );
}

export function renderVerificationMail(m: { baseUrl: string; name: string; email: string; token: string }) {
  const link = `${m.baseUrl}/auth/verify?token=${encodeURIComponent(m.token)}`;
  const text = [
    `Hello ${m.name},`,
    '',
    `Open this link to confirm that ${m.email} is your address (signed in to your account, it confirms at once):`,
    '',
    link,
    '',
    'The link works once and expires in 48 hours. If you did not create an account, ignore this mail.',
  ].join('\n');
  const subject = 'Confirm your email address';
  const html = mailHtml(
    subject,
    `<p>Hello ${escapeHtml(m.name)},</p><p>Open this link to confirm that ${escapeHtml(m.email)} is your address (signed in to your account, it confirms at once):</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      '<p>The link works once and expires in 48 hours. If you did not create an account, ignore this mail.</p>',
  );
  return { to: m.email, subject, text, html };
}

/** The reset mail job. As with verification, the token is made when the mail is sent and exists only in it. */
export async function sendPasswordResetJob(
  deps: MailDeps,
  payload: { userId: string; reason: 'forgot' | 'locked' },
): Promise<void> {
  const user = await repo.findUserById(deps.db, payload.userId);
  if (!user) return;
  const token = deps.ids.secret(32);
  const now = deps.clock.now();
  await repo.insertPasswordReset(deps.db, {
    tokenHash: sha256(token),
    userId: user.id,
    email: user.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TTL_MS),
  });
  await deps.mailer.send(
    renderPasswordResetMail({
      baseUrl: deps.baseUrl,
      name: user.name,
      email: user.email,
      token,
      reason: payload.reason,
    }),
  );
}

export function renderPasswordResetMail(m: {
  baseUrl: string;
  name: string;
  email: string;
  token: string;
  reason: 'forgot' | 'locked';
}) {
  const link = `${m.baseUrl}/auth/password/reset?token=${encodeURIComponent(m.token)}`;
  const why =
    m.reason === 'locked'
      ? 'Someone tried many wrong passwords for your account, so signing in to it now needs a new password. Open this link to set one:'
      : 'Someone (we hope you) asked to reset the password of your account. Open this link to set a new one:';
  const after =
    'The link works once and expires in 60 minutes. Setting a new password signs out every session of the account. If you did not ask for this, you can ignore this mail: your password stays as it is.';
  const text = [`Hello ${m.name},`, '', why, '', link, '', after].join('\n');
  const subject =
    m.reason === 'locked' ? 'Sign-in to your account is locked: set a new password' : 'Reset your password';
  const html = mailHtml(
    subject,
    `<p>Hello ${escapeHtml(m.name)},</p><p>${escapeHtml(why)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(after)}</p>`,
  );
  return { to: m.email, subject, text, html };
}

export async function sendPasswordNoticeJob(
  deps: MailDeps,
  payload: { userId: string; what: AccountNotice; codesLeft?: number },
): Promise<void> {
  const user = await repo.findUserById(deps.db, payload.userId);
  if (!user) return;
  await deps.mailer.send(
    renderPasswordNoticeMail({
      baseUrl: deps.baseUrl,
      name: user.name,
      email: user.email,
      what: payload.what,
      codesLeft: payload.codesLeft,
    }),
  );
}

/** What each notice says, and its subject. */
function noticeWords(what: AccountNotice, codesLeft: number | undefined): { subject: string; said: string } {
  switch (what) {
    case 'reset':
      return {
        subject: 'Your password was changed',
        said: 'The password of your account was set with a reset link just now, and every session of the account was signed out.',
      };
    case 'changed':
      return {
        subject: 'Your password was changed',
        said: 'The password of your account was changed just now, and every other session of the account was signed out.',
      };
    case 'two_factor_off':
      return {
        subject: 'Two-factor sign-in was turned off',
        said: 'Two-factor sign-in was turned off for your account just now: signing in now asks for the password alone.',
      };
    case 'recovery_code_used':
      return {
        subject: 'A recovery code was used to sign in',
        said: `A recovery code was used to sign in to your account just now. ${codesLeft === 1 ? '1 recovery code is' : `${String(codesLeft ?? 0)} recovery codes are`} left; make new ones from Two-factor sign-in in the dashboard.`,
      };
  }
}

export function renderPasswordNoticeMail(m: {
  baseUrl: string;
  name: string;
  email: string;
  what: AccountNotice;
  codesLeft?: number | undefined;
}) {
  const forgot = `${m.baseUrl}/dashboard/password/forgot`;
  const { subject, said } = noticeWords(m.what, m.codesLeft);
  const text = [
    `Hello ${m.name},`,
    '',
    said,
    '',
    `If this was not you, set a new password at once: ${forgot}`,
  ].join('\n');
  const html = mailHtml(
    subject,
    `<p>Hello ${escapeHtml(m.name)},</p><p>${escapeHtml(said)}</p><p>If this was not you, set a new password at once: <a href="${escapeHtml(forgot)}">${escapeHtml(forgot)}</a></p>`,
  );
  return { to: m.email, subject, text, html };
}
