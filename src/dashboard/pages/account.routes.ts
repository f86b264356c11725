// The dashboard's assets, signing up, in and out, email verification and the test/live switch
// (passwords and the account page: account-settings.routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sessionPrincipal } from '../../http/auth.js';
import { AppError, badRequest, forbidden } from '../../lib/errors.js';
import * as accounts from '../../modules/accounts/accounts.service.js';
import { deviceSetCookie, readDeviceCookie } from '../../modules/accounts/devices.js';
import { login } from '../../modules/accounts/sign-in.js';
import { askForCode } from './two-factor.routes.js';
import { ASSETS } from '../assets.js';
import * as sessions from '../sessions.js';
import { loginPage, signupPage, verifyPage } from '../views/account.js';
import { backTo, PAGE, PUBLIC_PAGE, safeNext, sentence, type PageContext } from '../page-context.js';
import { addressKey } from '../../http/client-address.js';

export function accountPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, html, show, done, form, preSession, signIn } = ctx;

  // ------------------------------------------------------------ assets

  for (const asset of ASSETS) {
    app.get(
      `/dashboard/assets/${asset.name}`,
      { config: { auth: { kind: 'public', rateLimit: false } }, schema: { hide: true } },
      async (req, reply) => {
        reply.header('etag', asset.etag).header('cache-control', 'public, max-age=31536000, immutable');
        if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.type(asset.type).send(asset.body);
      },
    );
  }

  // ------------------------------------------------------------ signing in and out

  app.get('/dashboard', PUBLIC_PAGE, async (req, reply) => {
    const s = await sessions.findSession(deps, req.headers.cookie);
    return reply.redirect(s ? '/dashboard/events' : '/dashboard/login', 303);
  });

  app.get<{ Querystring: { next?: string } }>('/dashboard/login', PUBLIC_PAGE, async (req, reply) => {
    const next = safeNext(req.query.next);
    return html(reply, loginPage(preSession(req, reply), { email: '', next, error: null }));
  });

  app.post('/dashboard/login', PUBLIC_PAGE, async (req, reply) => {
    const f = form(req);
    const email = f.text('email', 'Email', 254);
    const password = f.text('password', 'Password', 1024);
    const next = safeNext(f.text('next', 'next', 500));
    const csrf = preSession(req, reply);
    // The same sign-in as POST /auth/login, with its limits and the same device cookie.
    let signedIn: Awaited<ReturnType<typeof login>>;
    try {
      signedIn = await login(
        deps,
        { email, password },
        addressKey(req.ip),
        readDeviceCookie(req.headers.cookie),
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'too_many_attempts') {
        for (const [h, v] of Object.entries(err.headers)) reply.header(h, v);
        return html(
          reply,
          loginPage(csrf, {
            email,
            next,
            error: `Too many sign-in attempts. Try again in ${err.headers['retry-after'] ?? 'a few'} seconds.`,
          }),
          429,
        );
      }
      if (err instanceof AppError && err.code === 'password_reset_required') {
        return html(
          reply,
          loginPage(csrf, {
            email,
            next,
            error:
              'Sign-in to this account is locked after too many failed attempts. Set a new password with the link we mailed to its address, or use “Forgot your password?” for a new link.',
          }),
          err.status,
        );
      }
      if (err instanceof AppError && err.status < 500)
        return html(
          reply,
          loginPage(csrf, { email, next, error: 'Email or password is wrong.' }),
          err.status,
        );
      throw err;
    }
    if ('twoFactorRequired' in signedIn) return askForCode(reply, csrf, signedIn.challenge, next);
    return signIn(reply, signedIn.userId, next, [deviceSetCookie(signedIn.device)]);
  });

  app.get('/dashboard/signup', PUBLIC_PAGE, async (req, reply) =>
    html(reply, signupPage(preSession(req, reply), { email: '', name: '', phone: '', error: null })),
  );

  app.post('/dashboard/signup', PUBLIC_PAGE, async (req, reply) => {
    const f = form(req);
    const v = {
      email: f.text('email', 'Email', 254),
      name: f.text('name', 'Name', 200),
      phone: f.text('phone', 'Phone', 32),
    };
    const password = f.text('password', 'Password', 1024);
    let userId: string;
    try {
      ({ userId } = await accounts.signup(
        deps,
        { ...v, password, ...(v.phone ? { phone: v.phone } : {}) },
        { clientAddress: addressKey(req.ip) },
      ));
    } catch (err) {
      if (err instanceof AppError && err.status === 429)
        for (const [h, value] of Object.entries(err.headers)) reply.header(h, value);
      if (err instanceof AppError && err.status < 500)
        return html(
          reply,
          signupPage(preSession(req, reply), { ...v, error: sentence(err.message) }),
          err.status,
        );
      throw err;
    }
    // The verification mail is on its way (a job committed with the account): say so first.
    return signIn(reply, userId, '/dashboard/verify');
  });

  // ------------------------------------------------------------ email verification

  // The mail's link (GET /auth/verify) leads here. Signed in to the account it was sent for, it
  // confirms at once, with no button to press; signed out, the 401 leads to sign-in and back
  // here. A mail scanner opening the link has no session, so it changes nothing; a session
  // of another account is told so. Only the token's own account can be verified by it.
  app.get<{ Querystring: { token?: string } }>('/dashboard/verify', PAGE, async (req, reply) => {
    const token =
      typeof req.query.token === 'string' && req.query.token.length <= 128 ? req.query.token : undefined;
    if (token !== undefined) return confirm(req, reply, token);
    return show(req, reply, 'account', 'Verify your email address', (v) =>
      verifyPage(v.csrf, { email: v.email, verified: v.emailVerified }),
    );
  });

  // The same confirmation as POST /auth/verify (a page opened before the link confirmed on opening posts here).
  app.post('/dashboard/verify', PAGE, async (req, reply) =>
    confirm(req, reply, form(req).text('token', 'Token', 128)),
  );

  async function confirm(req: FastifyRequest, reply: FastifyReply, token: string) {
    const s = sessionPrincipal(req);
    if (s.emailVerified) return done(req, reply, '/dashboard/verify', `${s.email} is verified already.`);
    const outcome = await accounts.verifyEmail(deps, token, s.personId);
    if (outcome.ok) return done(req, reply, '/dashboard/verify', `Thank you: ${s.email} is verified.`);
    const text =
      outcome.code === 'session_required'
        ? `This link was sent for another account, not for ${s.email}. Sign out, then sign in to that account to confirm it.`
        : sentence(outcome.message);
    await sessions.setFlash(deps.db, s.sessionId!, { kind: 'error', text });
    return reply.redirect('/dashboard/verify', 303);
  }

  app.post('/dashboard/verify/resend', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    // The same function, and so the same hourly limit, as POST /auth/verify/resend.
    await accounts.resendVerification(deps, s.personId);
    return done(
      req,
      reply,
      backTo(req) ?? '/dashboard/verify',
      `A new verification mail is on its way to ${s.email}. Open the link in it.`,
    );
  });

  app.post('/dashboard/logout', PAGE, async (req, reply) => {
    await sessions.endSession(deps.db, sessionPrincipal(req).sessionId!);
    reply.header('set-cookie', sessions.clearCookie(sessions.SESSION_COOKIE));
    return html(
      reply,
      loginPage(preSession(req, reply), {
        email: '',
        next: '/dashboard/events',
        error: null,
        notice: 'You are signed out.',
      }),
    );
  });

  app.post('/dashboard/mode', PAGE, async (req, reply) => {
    const mode = form(req).text('mode', 'Mode', 10);
    if (mode !== 'test' && mode !== 'live') throw badRequest('invalid_mode', 'mode must be test or live');
    // The API gives live keys only to a verified account; the dashboard keeps the same rule.
    if (mode === 'live' && !sessionPrincipal(req).emailVerified)
      throw forbidden('email_unverified', 'live mode needs a verified email address');
    reply.header('set-cookie', sessions.cookie(sessions.MODE_COOKIE, mode, 365 * 86400));
    // Objects belong to one mode: an event page of the other mode would be a 404.
    const back = backTo(req) ?? '/dashboard/events';
    return reply.redirect(back.startsWith('/dashboard/events/') ? '/dashboard/events' : back, 303);
  });
}
