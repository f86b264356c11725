// Two-factor sign-in in the dashboard (docs/decisions/25-organiser-teams-and-roles.md): the code
// step after the password, the person's two-factor page (enrol with a QR code, recovery codes,
// turning it off) and an owner's or admin's rule requiring it of the organisation. The secret and
// the recovery codes appear only in the answer to the form that made them.
import type { FastifyInstance, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import { sessionPrincipal } from '../../http/auth.js';
import { addressKey } from '../../http/client-address.js';
import { AppError } from '../../lib/errors.js';
import { deviceSetCookie, readDeviceCookie } from '../../modules/accounts/devices.js';
import { CHALLENGE_TTL_SECONDS, completeTwoFactor } from '../../modules/accounts/sign-in.js';
import * as twoFactor from '../../modules/accounts/two-factor.js';
import * as sessions from '../sessions.js';
import { loginPage } from '../views/account.js';
import { codePage, enrolPage, recoveryCodesPage, twoFactorPage } from '../views/two-factor.js';
import { PAGE, PUBLIC_PAGE, safeNext, sentence, type PageContext } from '../page-context.js';

/** Between the password and the code: the challenge, HttpOnly, for 5 minutes. */
export const CHALLENGE_COOKIE = 'svc_2fa';

/** After a right password: the challenge goes into its cookie and the code page is shown. */
export function askForCode(reply: FastifyReply, csrf: string, challenge: string, next: string) {
  reply.header('set-cookie', sessions.cookie(CHALLENGE_COOKIE, challenge, CHALLENGE_TTL_SECONDS));
  return reply
    .code(200)
    .type('text/html; charset=utf-8')
    .send(codePage(csrf, { next, error: null }));
}

export function twoFactorPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, html, show, done, form, preSession, signIn } = ctx;

  app.post('/dashboard/login/two-factor', PUBLIC_PAGE, async (req, reply) => {
    const f = form(req);
    const next = safeNext(f.text('next', 'next', 500));
    const csrf = preSession(req, reply);
    const challenge = sessions.parseCookies(req.headers.cookie).get(CHALLENGE_COOKIE) ?? '';
    try {
      const done = await completeTwoFactor(
        deps,
        {
          challenge,
          code: f.optional('code', 'Code', 6),
          recoveryCode: f.optional('recoveryCode', 'Recovery code', 40),
        },
        addressKey(req.ip),
        readDeviceCookie(req.headers.cookie),
      );
      return signIn(reply, done.userId, next, [
        deviceSetCookie(done.device),
        sessions.clearCookie(CHALLENGE_COOKIE),
      ]);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      for (const [h, v] of Object.entries(err.headers)) reply.header(h, v);
      if (err.code === 'invalid_two_factor_code')
        return html(reply, codePage(csrf, { next, error: 'That code is wrong or was used already.' }), 401);
      const error =
        err.code === 'too_many_attempts'
          ? `Too many sign-in attempts. Try again in ${err.headers['retry-after'] ?? 'a few'} seconds.`
          : err.code === 'invalid_two_factor_challenge'
            ? 'Your sign-in took too long. Sign in again.'
            : sentence(err.message);
      return html(reply, loginPage(csrf, { email: '', next, error }), err.status);
    }
  });

  app.get('/dashboard/two-factor', PAGE, async (req, reply) =>
    show(req, reply, 'account', 'Two-factor sign-in', async (v) => {
      const [st, required] = await Promise.all([
        twoFactor.status(deps.db, v.s.personId),
        twoFactor.isRequiredBy(deps.db, v.s.userId),
      ]);
      const canRequire = v.s.role === 'owner' || v.s.role === 'admin';
      return twoFactorPage(v.csrf, { ...st, required, canRequire });
    }),
  );

  const enrolView = async (secret: { secret: string; otpauthUri: string }) => ({
    secret: secret.secret,
    qrDataUrl: await QRCode.toDataURL(secret.otpauthUri, { margin: 2, width: 200 }),
  });

  app.post('/dashboard/two-factor/enrol', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    const secret = await twoFactor.startEnrolment(deps, { id: s.personId, email: s.email });
    return show(req, reply, 'account', 'Set up two-factor sign-in', async (v) =>
      enrolPage(v.csrf, await enrolView(secret)),
    );
  });

  app.post('/dashboard/two-factor/confirm', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    try {
      const r = await twoFactor.confirmEnrolment(deps, s.personId, form(req).text('code', 'Code', 6));
      return show(
        req,
        reply,
        'account',
        'Two-factor sign-in is on',
        () => recoveryCodesPage(r.recoveryCodes),
        {
          kind: 'ok',
          text: 'Two-factor sign-in is on.',
        },
      );
    } catch (err) {
      const pending = await twoFactor.pendingEnrolment(deps, { id: s.personId, email: s.email });
      if (!(err instanceof AppError) || err.code !== 'invalid_two_factor_code' || !pending) throw err;
      const view = await enrolView(pending);
      return show(req, reply, 'account', 'Set up two-factor sign-in', (v) => enrolPage(v.csrf, view), {
        kind: 'error',
        text: 'That code is wrong. Check the time on your phone and enter the code the app shows now.',
      });
    }
  });

  const proof = (req: Parameters<typeof form>[0]) => {
    const f = form(req);
    return { code: f.optional('code', 'Code', 6), password: f.optional('password', 'Password', 1024) };
  };

  app.post('/dashboard/two-factor/disable', PAGE, async (req, reply) => {
    await twoFactor.disable(deps, sessionPrincipal(req).personId, proof(req));
    return done(req, reply, '/dashboard/two-factor', 'Two-factor sign-in is off.');
  });

  app.post('/dashboard/two-factor/recovery-codes', PAGE, async (req, reply) => {
    const r = await twoFactor.regenerateRecoveryCodes(deps, sessionPrincipal(req).personId, proof(req));
    return show(req, reply, 'account', 'New recovery codes', () => recoveryCodesPage(r.recoveryCodes), {
      kind: 'ok',
      text: 'Your earlier recovery codes no longer work.',
    });
  });

  app.post('/dashboard/two-factor/requirement', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    const required = form(req).text('required', 'Required', 3) === 'yes';
    await twoFactor.setRequired(deps, s, required);
    return done(
      req,
      reply,
      '/dashboard/two-factor',
      required ? 'Every member must now sign in with two-factor.' : 'Two-factor is no longer required.',
    );
  });
}
