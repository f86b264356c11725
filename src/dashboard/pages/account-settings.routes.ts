// The dashboard's passwords (forgotten, reset, changed), the account page with its GST settings and signing out everywhere.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sessionPrincipal } from '../../http/auth.js';
import { EX, type OperationExamples } from '../../http/examples.js';
import { AppError } from '../../lib/errors.js';
import * as passwords from '../../modules/accounts/password-changes.js';
import * as sessions from '../sessions.js';
import * as gst from '../../modules/gst/gst.service.js';
import { html as markup } from '../html.js';
import { gstSettingsCard } from '../views/gst.js';
import { gstDocumentsDownload } from '../views/exports.js';
import { accountPage, forgotPage, loginPage, resetPage } from '../views/account.js';
import { backTo, PAGE, PUBLIC_PAGE, sentence, type PageContext, type PageViewer } from '../page-context.js';
import { can } from '../layout.js';

/** The reset link's examples in the OpenAPI document. */
const RESET_LINK_EXAMPLES: OperationExamples = {
  params: { token: EX.resetToken },
  responses: {
    '200':
      '<!doctype html><html lang="en-IN"><head><title>Set a new password</title></head><body><form method="post">…</form></body></html>',
  },
};

export function accountSettingsPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, html, show, done, form, org, preSession } = ctx;

  // ------------------------------------------------------------ passwords

  app.get('/dashboard/password/forgot', PUBLIC_PAGE, async (req, reply) =>
    html(reply, forgotPage(preSession(req, reply), { email: '', sent: false, error: null })),
  );

  app.post('/dashboard/password/forgot', PUBLIC_PAGE, async (req, reply) => {
    const email = form(req).text('email', 'Email', 254);
    try {
      await passwords.forgotPassword(deps, email);
    } catch (err) {
      if (err instanceof AppError && err.status < 500)
        return html(
          reply,
          forgotPage(preSession(req, reply), { email, sent: false, error: sentence(err.message) }),
          err.status,
        );
      throw err;
    }
    return html(reply, forgotPage(preSession(req, reply), { email, sent: true, error: null }), 202);
  });

  // The reset mail's link. It is a page of the dashboard (its form, CSP and CSRF), documented with the API.
  app.get<{ Querystring: { token?: string } }>(
    '/auth/password/reset',
    {
      config: { auth: { kind: 'public' }, examples: RESET_LINK_EXAMPLES },
      schema: {
        operationId: 'openPasswordResetLink',
        tags: ['dashboard'],
        summary: 'Open the password reset link (HTML form; changes nothing)',
        description:
          'The link of the reset mail: a page with a form for the new password, which posts (with its CSRF token) to the dashboard and does what `POST /auth/password/reset` does. Opening it changes nothing and does not use the token.',
        querystring: Type.Object({
          token: Type.Optional(
            Type.String({ maxLength: 128, description: 'The token from the reset mail.' }),
          ),
        }),
        response: {
          200: {
            description: 'The form that sets the new password.',
            content: { 'text/html': { schema: Type.String() } },
          },
        },
      },
    },
    async (req, reply) => {
      reply.header('referrer-policy', 'no-referrer');
      return html(reply, resetPage(preSession(req, reply), { token: req.query.token ?? '', error: null }));
    },
  );

  app.post('/dashboard/password/reset', PUBLIC_PAGE, async (req, reply) => {
    const f = form(req);
    const token = f.text('token', 'Token', 128);
    const password = f.text('password', 'Password', 1024);
    try {
      await passwords.resetPassword(deps, { token, password });
    } catch (err) {
      if (err instanceof AppError && err.status < 500)
        return html(
          reply,
          resetPage(preSession(req, reply), { token, error: sentence(err.message) }),
          err.status,
        );
      throw err;
    }
    // Every session ended, this browser's too: sign in with the new password.
    reply.header('set-cookie', [sessions.clearCookie(sessions.SESSION_COOKIE)]);
    return html(
      reply,
      loginPage(preSession(req, reply), {
        email: '',
        next: '/dashboard/events',
        error: null,
        notice:
          'Your new password is set and every session of the account is signed out. Sign in with the new password.',
      }),
    );
  });

  /** The organisation's GST settings and documents, as far as the role reaches: the form to those who may change them. */
  const gstBlock = async (v: PageViewer) => {
    if (!can(v, 'money.read')) return markup``;
    const settings = await gst.getSettings(deps.db, v.org);
    return markup`${
      can(v, 'gst.manage')
        ? gstSettingsCard(v.csrf, v.mode, settings)
        : markup`<section class="card" aria-labelledby="gst-h"><h2 id="gst-h">GST (${v.mode} mode)</h2><p>GSTIN: <span class="mono">${settings.gstin ?? 'none'}</span>. The owner, admins and finance change these settings.</p></section>`
    }${can(v, 'exports') ? gstDocumentsDownload(v.mode) : ''}`;
  };

  app.get('/dashboard/account', PAGE, async (req, reply) =>
    show(
      req,
      reply,
      'account',
      'Account',
      async (v) =>
        markup`${accountPage(v.csrf, { email: v.email, verified: v.emailVerified })}${await gstBlock(v)}`,
    ),
  );

  // The GST settings on a page of their own (the account page shows the same card).
  app.get('/dashboard/account/gst', PAGE, async (req, reply) =>
    show(
      req,
      reply,
      'account',
      'GST settings',
      async (v) => markup`${await gstBlock(v)}<p><a href="/dashboard/account">← Account</a></p>`,
    ),
  );

  app.post('/dashboard/account/gst', PAGE, async (req, reply) => {
    const f = form(req);
    // The same settings as PUT /api/v1/gst/settings, in the mode the dashboard shows.
    await gst.putSettings(deps, org(req), {
      gstin: f.optional('gstin', 'GSTIN', 20) ?? null,
      legalName: f.required('legalName', 'Legal name', 200),
      address: f.required('address', 'Address', 500),
      state: f.optional('state', 'State', 2) ?? null,
      seriesPrefix: f.optional('seriesPrefix', 'Number prefix', 3),
    });
    // Back to the page the form was on: this one or the account page.
    return done(
      req,
      reply,
      backTo(req) === '/dashboard/account/gst' ? '/dashboard/account/gst' : '/dashboard/account',
      'GST settings saved.',
    );
  });

  app.post('/dashboard/password/change', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    const f = form(req);
    // The same change as POST /auth/password/change; this session stays, every other one ends.
    await passwords.changePassword(
      deps,
      s.personId,
      {
        currentPassword: f.text('currentPassword', 'Current password', 1024),
        newPassword: f.text('newPassword', 'New password', 1024),
      },
      s.sessionId,
    );
    return done(
      req,
      reply,
      '/dashboard/account',
      'Your password is changed. Every other session of the account is signed out.',
    );
  });

  app.post('/dashboard/logout-everywhere', PAGE, async (req, reply) => {
    await passwords.logoutEverywhere(deps, sessionPrincipal(req).personId);
    reply.header('set-cookie', sessions.clearCookie(sessions.SESSION_COOKIE));
    return html(
      reply,
      loginPage(preSession(req, reply), {
        email: '',
        next: '/dashboard/events',
        error: null,
        notice: 'Every session of the account is signed out, this one included.',
      }),
    );
  });
}
