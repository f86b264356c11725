// The organiser dashboard: server-rendered pages under /dashboard. Every rule is the
// services' own; these handlers read forms, call the same service functions as the
// JSON API, and render. Pages are hidden from the OpenAPI document (they are not API).
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { describeError } from '../http/error-handler.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { forbidden } from '../lib/errors.js';
import { parseForm, type FormBody } from './form.js';
import { backTo, pageContext, pathOf, sentence } from './page-context.js';
import { accountPages } from './pages/account.routes.js';
import { accountSettingsPages } from './pages/account-settings.routes.js';
import { eventPages } from './pages/events.routes.js';
import { eventSetupPages } from './pages/event-setup.routes.js';
import { exportPages } from './pages/exports.routes.js';
import { waitlistPages } from './pages/waitlist.routes.js';
import { seatingPages } from './pages/seating.routes.js';
import { moneyPages } from './pages/money.routes.js';
import { statementPages } from './pages/statements.routes.js';
import { activityPages } from './pages/activity.routes.js';
import { registrationPages } from './pages/registrations.routes.js';
import { MAIL_FILE_CSP, MAIL_FRAME_CSP, testInboxPages } from './pages/test-inbox.routes.js';
import { developerPages, membershipPages, staffPages } from './pages/settings.routes.js';
import * as sessions from './sessions.js';
import { errorPage } from './views/account.js';
import { organisationPages } from './pages/organisation.routes.js';
import { teamPages } from './pages/team.routes.js';
import { doorMemberPages } from './pages/door.routes.js';
import { twoFactorPages } from './pages/two-factor.routes.js';

/** Sign-in attempts per account per minute window, on top of the per-address limit every public route has. */
export const LOGIN_ATTEMPTS_PER_MINUTE = 10;
const FORM_BODY_LIMIT = 256 * 1024;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const dashboardRoutes =
  (deps: DashboardDeps): FastifyPluginAsync =>
  async (app) => {
    const secret = deps.config.sessionSecret;

    // Forms post urlencoded bodies; only the dashboard accepts them.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => {
        done(null, parseForm(body as string));
      },
    );

    // The pages read each query field as one text; a field sent twice (?q=a&q=b) counts once
    // (its first value), as a form's field does, never as a list the page cannot read.
    app.addHook('preValidation', async (req) => {
      const query = req.query as Record<string, unknown> | undefined;
      if (!query) return;
      for (const [name, value] of Object.entries(query)) if (Array.isArray(value)) query[name] = value[0];
    });

    app.addHook('onSend', async (req, reply, payload) => {
      // A test mail's body is framed by the Test inbox; its files are downloads. Each has its own policy.
      const mail = reply.statusCode < 400 ? req.routeOptions.config.dashboardMail : undefined;
      reply
        .header(
          'content-security-policy',
          mail === 'body' ? MAIL_FRAME_CSP : mail === 'file' ? MAIL_FILE_CSP : CSP,
        )
        .header('x-frame-options', mail === 'body' ? 'SAMEORIGIN' : 'DENY')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .header('cross-origin-opener-policy', 'same-origin');
      if (!req.url.startsWith('/dashboard/assets/')) reply.header('cache-control', 'no-store');
      return payload;
    });

    // CSRF: a state-changing request must come from our own pages (Origin and
    // Sec-Fetch-Site when the browser sends them) and carry the form token bound to
    // this session, or before sign-in to the pre-session cookie.
    app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST') return;
      const site = req.headers['sec-fetch-site'];
      const origin = req.headers.origin;
      const own = new Set([`${req.protocol}://${req.host}`, new URL(deps.config.baseUrl).origin]);
      const crossSite =
        (typeof site === 'string' && site !== 'same-origin' && site !== 'none') ||
        (typeof origin === 'string' && !own.has(origin));
      const body = (req.body ?? {}) as FormBody;
      const binding =
        req.principal?.kind === 'session'
          ? req.principal.sessionId
          : sessions.parseCookies(req.headers.cookie).get(sessions.PRE_SESSION_COOKIE);
      if (crossSite || !sessions.csrfValid(secret, binding, body._csrf)) {
        throw forbidden(
          'csrf_refused',
          'This form came from another site or has expired. Reload the page and try again.',
        );
      }
    });

    app.setErrorHandler(async (err: FastifyError | Error, req, reply) => {
      // Forms: an oversized or non-form body reads as the form's own refusal.
      const fe = err as FastifyError;
      const e = describeError(err) ?? {
        status: 500,
        code: 'internal' as const,
        message: 'internal error',
        headers: {},
      };
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') e.message = 'the form is too large';
      if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        e.message = 'forms must be sent as application/x-www-form-urlencoded';
      // The services point API callers at POST /auth/verify/resend; a person here has a button for it.
      if (e.code === 'email_unverified')
        e.message = `${e.message.split(':')[0]}: open the link in the verification mail, or use “Send the mail again” on this page`;
      for (const [h, v] of Object.entries(e.headers)) reply.header(h, v);
      // An organisation requiring two-factor sends a member without it to set it up.
      if (e.code === 'two_factor_enrolment_required') return reply.redirect('/dashboard/two-factor', 303);
      if (e.status === 401)
        return reply.redirect(`/dashboard/login?next=${encodeURIComponent(pathOf(req))}`, 303);
      if (e.status >= 500) req.log.error({ err, reqId: req.id }, 'dashboard error');
      const sessionId = req.principal?.kind === 'session' ? req.principal.sessionId : undefined;
      // A refused action goes back to the page it came from, which shows why.
      if (req.method === 'POST' && sessionId !== undefined && e.status < 500 && e.code !== 'csrf_refused') {
        await sessions.setFlash(deps.db, sessionId, { kind: 'error', text: sentence(e.message) });
        return reply.redirect(backTo(req) ?? '/dashboard/events', 303);
      }
      return reply
        .code(e.status)
        .type('text/html; charset=utf-8')
        .send(
          errorPage(
            e.status,
            e.status >= 500 ? 'Something went wrong on our side. Please try again.' : sentence(e.message),
            backTo(req),
            e.status >= 500 ? '' : e.code,
          ),
        );
    });

    // The pages, in one encapsulation context with the hooks and error handler above.
    const ctx = pageContext(deps);
    accountPages(app, ctx);
    accountSettingsPages(app, ctx);
    organisationPages(app, ctx);
    teamPages(app, ctx);
    doorMemberPages(app, ctx);
    twoFactorPages(app, ctx);
    eventPages(app, ctx);
    eventSetupPages(app, ctx);
    waitlistPages(app, ctx);
    seatingPages(app, ctx);
    registrationPages(app, ctx);
    exportPages(app, ctx);
    membershipPages(app, ctx);
    moneyPages(app, ctx);
    statementPages(app, ctx);
    activityPages(app, ctx);
    testInboxPages(app, ctx);
    developerPages(app, ctx);
    staffPages(app, ctx);
  };
