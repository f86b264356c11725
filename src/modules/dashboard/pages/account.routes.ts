// The dashboard's assets, signing up, in and out, email verification and the test/live switch.
import type { FastifyInstance } from 'fastify';
import { sessionPrincipal } from '../../../shared/auth.js';
import { AppError, badRequest } from '../../../shared/errors.js';
import * as accounts from '../../accounts/accounts.service.js';
import { ASSETS } from '../assets.js';
import * as sessions from '../sessions.js';
import { loginPage, signupPage, verifyPage } from '../views/account.js';
import { backTo, PAGE, PUBLIC_PAGE, safeNext, sentence, type PageContext } from '../page-context.js';

export function accountPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, html, show, done, form, preSession, signIn } = ctx;

  // ------------------------------------------------------------ assets

  for (const asset of ASSETS) {
    app.get(`/dashboard/assets/${asset.name}`, { config: { auth: { kind: 'public', rateLimit: false } }, schema: { hide: true } }, async (req, reply) => {
      reply.header('etag', asset.etag).header('cache-control', 'public, max-age=31536000, immutable');
      if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    });
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
    // The same sign-in as POST /auth/login, with its limits per account and per address.
    let userId: string;
    try {
      ({ userId } = await accounts.login(deps, { email, password }, req.ip));
    } catch (err) {
      if (err instanceof AppError && err.code === 'too_many_attempts') {
        for (const [h, v] of Object.entries(err.headers)) reply.header(h, v);
        return html(reply, loginPage(csrf, { email, next, error: `Too many sign-in attempts. Try again in ${err.headers['retry-after'] ?? 'a few'} seconds.` }), 429);
      }
      if (err instanceof AppError && err.status < 500) return html(reply, loginPage(csrf, { email, next, error: 'Email or password is wrong.' }), err.status);
      throw err;
    }
    return signIn(reply, userId, next);
  });

  app.get('/dashboard/signup', PUBLIC_PAGE, async (req, reply) => html(reply, signupPage(preSession(req, reply), { email: '', name: '', phone: '', error: null })));

  app.post('/dashboard/signup', PUBLIC_PAGE, async (req, reply) => {
    const f = form(req);
    const v = { email: f.text('email', 'Email', 254), name: f.text('name', 'Name', 200), phone: f.text('phone', 'Phone', 32) };
    const password = f.text('password', 'Password', 1024);
    let userId: string;
    try {
      ({ userId } = await accounts.signup(deps, { ...v, password, ...(v.phone ? { phone: v.phone } : {}) }));
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return html(reply, signupPage(preSession(req, reply), { ...v, error: sentence(err.message) }), err.status);
      throw err;
    }
    // The verification mail is on its way (a job committed with the account): say so first.
    return signIn(reply, userId, '/dashboard/verify');
  });

  // ------------------------------------------------------------ email verification

  app.get('/dashboard/verify', PAGE, async (req, reply) =>
    show(req, reply, 'account', 'Verify your email address', (v) => verifyPage(v.csrf, { email: v.email, verified: v.emailVerified })),
  );

  app.post('/dashboard/verify/resend', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    // The same function, and so the same hourly limit, as POST /auth/verify/resend.
    await accounts.resendVerification(deps, s.userId);
    return done(req, reply, backTo(req) ?? '/dashboard/verify', `A new verification mail is on its way to ${s.email}. Open the link in it.`);
  });

  app.post('/dashboard/logout', PAGE, async (req, reply) => {
    await sessions.endSession(deps.db, sessionPrincipal(req).sessionId!);
    reply.header('set-cookie', sessions.clearCookie(sessions.SESSION_COOKIE));
    return html(reply, loginPage(preSession(req, reply), { email: '', next: '/dashboard/events', error: null, notice: 'You are signed out.' }));
  });

  app.post('/dashboard/mode', PAGE, async (req, reply) => {
    const mode = form(req).text('mode', 'Mode', 10);
    if (mode !== 'test' && mode !== 'live') throw badRequest('invalid_mode', 'mode must be test or live');
    reply.header('set-cookie', sessions.cookie(sessions.MODE_COOKIE, mode, 365 * 86400));
    // Objects belong to one mode: an event page of the other mode would be a 404.
    const back = backTo(req) ?? '/dashboard/events';
    return reply.redirect(back.startsWith('/dashboard/events/') ? '/dashboard/events' : back, 303);
  });
}
