import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { ANY_KEY, keyPrincipal, sessionPrincipal } from '../../shared/auth.js';
import { appError } from '../../shared/errors.js';
import { escapeHtml } from '../../shared/html.js';
import { countEventsByStatus } from '../events/events.service.js';
import * as accounts from './accounts.service.js';

const EMAIL_VERIFIED = Type.Boolean({
  description:
    'Whether the account has proved its email address by the verification mail. Until it has, live keys cannot be created (403 `email_unverified`), payouts are refused and `STAFF_EMAILS` grants nothing.',
});

const Session = Type.Object({
  userId: Type.String(),
  idToken: Type.String({ description: 'Send as `Authorization: Bearer <idToken>` to dashboard routes and event deletion.' }),
  expiresAt: Type.String({ format: 'date-time' }),
  emailVerified: EMAIL_VERIFIED,
});

const Me = Type.Object(
  {
    userId: Type.String(),
    apiKeyId: Type.String({ description: 'The id of the key that made this request.' }),
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: "The key's mode." }),
    class: Type.Union([Type.Literal('full'), Type.Literal('checkout')], { description: "The key's class." }),
    email: Type.Optional(Type.String({ description: 'Full keys only.' })),
    name: Type.Optional(Type.String({ description: 'Full keys only.' })),
    phone: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Full keys only.' })),
    emailVerified: Type.Optional(EMAIL_VERIFIED),
    isOrganizer: Type.Optional(Type.Boolean({ description: 'Full keys only.' })),
    canPublish: Type.Optional(Type.Boolean({ description: 'False until platform staff grant organiser access. Full keys only.' })),
    events: Type.Optional(
      Type.Object({ total: Type.Integer(), draft: Type.Integer(), published: Type.Integer() }, { description: "Counts of this account's events in the key's mode. Full keys only." }),
    ),
  },
  {
    description:
      'A full key reads the whole identity. A checkout key (which may sit in a web page) reads only the account id and its own facts: `userId`, `apiKeyId`, `mode`, `class`.',
  },
);

const TOKEN = Type.String({ maxLength: 128, description: 'The token from the verification link.' });
const HTML = { 'text/html': { schema: Type.String({ description: 'A small HTML page for a person.' }) } };

function page(title: string, message: string, link?: { href: string; text: string }): string {
  const more = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${more}</body></html>`;
}

export const accountsRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'sessions' | 'rateLimiter' | 'jobs'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/signup',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Create an account',
          description:
            'A new account has `isOrganizer: true` and `canPublish: false`. Emails are case-insensitive. A verification mail with a link `{BASE_URL}/auth/verify?token=…` (valid 48 hours, single use) is sent to the address; until it is opened the account has `emailVerified: false`. Test keys work at once.',
          body: Type.Object(
            {
              email: Type.String({ maxLength: 254 }),
              password: Type.String({ minLength: 10, maxLength: 1024 }),
              name: Type.String({ minLength: 1, maxLength: 200 }),
              phone: Type.Optional(Type.String({ maxLength: 32 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Session, 409: Type.Ref('Error') },
        },
      },
      async (req, reply) => reply.code(201).send(await accounts.signup(deps, req.body)),
    );

    app.post(
      '/auth/login',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Log in and get a session token',
          description: `A wrong password and an unknown email answer the same 401. Failed sign-ins are limited to ${accounts.LOGIN_ACCOUNT_LIMIT.limit} per account (per email, whether or not an account has it) and ${accounts.LOGIN_ADDRESS_LIMIT.limit} per client address in fixed 15-minute windows; beyond that the answer is 429 \`too_many_attempts\` with \`Retry-After\`, whatever the password.`,
          body: Type.Object(
            { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
            { additionalProperties: false },
          ),
          response: { 200: Session, 401: Type.Ref('Error') },
        },
      },
      async (req) => accounts.login(deps, req.body, req.ip),
    );

    app.get(
      '/auth/verify',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Open the verification link (HTML page)',
          description:
            'The link of the verification mail. Marks the address verified and answers a small HTML page; 400 (also an HTML page) when the token is unknown, expired (48 hours) or already used.',
          querystring: Type.Object({ token: Type.Optional(TOKEN) }),
          response: { 200: { description: 'The address is verified.', content: HTML }, 400: { description: 'The link is not valid, has expired or was already used.', content: { ...HTML, 'application/json': { schema: Type.Ref('Error') } } } },
        },
      },
      async (req, reply) => {
        const outcome = await accounts.verifyEmail(deps, req.query.token ?? '');
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        if (outcome.ok) return reply.code(200).send(page('Email address verified', 'Thank you: your email address is verified. You can close this page.', { href: '/dashboard', text: 'Go to the dashboard' }));
        return reply.code(400).send(page('This link does not work', `${outcome.message}.`));
      },
    );

    app.post(
      '/auth/verify',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Verify the email address with the token of the verification mail',
          description:
            'Marks the address verified. 400 `invalid_verification_token` (unknown), `verification_token_expired` (older than 48 hours) or `verification_token_used` (a token works once).',
          body: Type.Object({ token: TOKEN }, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(true) }) },
        },
      },
      async (req) => {
        const outcome = await accounts.verifyEmail(deps, req.body.token);
        if (!outcome.ok) throw appError(outcome.code, outcome.message);
        return { success: true as const, emailVerified: true as const };
      },
    );

    app.post(
      '/auth/verify/resend',
      {
        config: { auth: { kind: 'session' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Send a new verification mail',
          description: `Queues a new verification mail to the account's address (earlier links stay valid until they expire). At most ${accounts.RESEND_LIMIT.limit} per hour per account (429 \`too_many_attempts\`); 409 \`email_already_verified\` when there is nothing to verify.`,
          response: { 202: Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(false) }), 409: Type.Ref('Error') },
        },
      },
      async (req, reply) => {
        await accounts.resendVerification(deps, sessionPrincipal(req).userId);
        return reply.code(202).send({ success: true as const, emailVerified: false as const });
      },
    );

    app.get(
      '/api/v1/me',
      {
        config: { auth: ANY_KEY },
        schema: { tags: ['identity'], summary: 'The account and key behind this request', response: { 200: Me } },
      },
      async (req) => {
        const p = keyPrincipal(req);
        const keyFacts = { userId: p.userId, apiKeyId: p.keyId, mode: p.mode, class: p.keyClass };
        // A checkout key may be read by anyone who opens the page it sits in.
        if (p.keyClass !== 'full') return keyFacts;
        const user = await accounts.getUser(deps.db, p.userId);
        return {
          ...keyFacts,
          email: user.email,
          name: user.name,
          phone: user.phone,
          emailVerified: accounts.isEmailVerified(user),
          isOrganizer: user.is_organizer,
          canPublish: user.can_publish,
          events: await countEventsByStatus(deps.db, p.userId, p.mode),
        };
      },
    );
  };
