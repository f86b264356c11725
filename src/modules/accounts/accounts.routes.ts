import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { SessionSigner } from './sessions.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { Config } from '../../config.js';
import type { Db } from '../../lib/db-handle.js';
import { ANY_KEY, keyPrincipal, sessionPrincipal } from '../../http/auth.js';
import { appError } from '../../lib/errors.js';
import { countEventsByStatus } from '../events/events.service.js';
import * as accounts from './accounts.service.js';
import * as passwords from './password-changes.js';
import { deviceSetCookie, readDeviceCookie } from './devices.js';
import { addressKey } from '../../http/client-address.js';

const EMAIL_VERIFIED = Type.Boolean({
  description:
    'Whether the account has proved its email address by the verification mail. Until it has, live keys cannot be created (403 `email_unverified`), payouts are refused and `STAFF_EMAILS` grants nothing.',
});

const Session = Type.Object({
  userId: Type.String(),
  idToken: Type.String({
    description: 'Send as `Authorization: Bearer <idToken>` to dashboard routes and event deletion.',
  }),
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
    canPublish: Type.Optional(
      Type.Boolean({ description: 'False until platform staff grant organiser access. Full keys only.' }),
    ),
    events: Type.Optional(
      Type.Object(
        { total: Type.Integer(), draft: Type.Integer(), published: Type.Integer() },
        { description: "Counts of this account's events in the key's mode. Full keys only." },
      ),
    ),
  },
  {
    description:
      'A full key reads the whole identity. A checkout key (which may sit in a web page) reads only the account id and its own facts: `userId`, `apiKeyId`, `mode`, `class`.',
  },
);

const TOKEN = Type.String({ maxLength: 128, description: 'The token from the verification link.' });
const RESET_TOKEN = Type.String({ maxLength: 128, description: 'The token from the password reset link.' });
const NEW_PASSWORD = Type.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters.' });
const OK = Type.Object({ success: Type.Literal(true) });
export const accountsRoutes =
  (deps: {
    db: Kysely<Database>;
    clock: Clock;
    ids: Ids;
    sessions: SessionSigner;
    rateLimiter: RateLimiter;
    jobs: JobRunner;
    config: Config;
    endDashboardSessions: (db: Db, userId: string, keep?: string) => Promise<void>;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/signup',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Create an account',
          description:
            'A new account has `isOrganizer: true` and `canPublish: false`. Emails are case-insensitive. A verification mail with a link `{BASE_URL}/auth/verify?token=…` (valid 48 hours, single use) is sent to the address; until the owner confirms it, signed in to this account (see `GET /auth/verify`), the account has `emailVerified: false`. Test keys work at once. One client address (an IPv6 client by its /64) may sign up `SIGNUP_LIMIT_PER_HOUR` times an hour (default 10), then 429 `too_many_signups` with `Retry-After`; one email address gets at most `VERIFY_MAIL_LIMIT_PER_HOUR` verification mails an hour (default 5), this one and resends together.',
          body: Type.Object(
            {
              email: Type.String({ maxLength: 254 }),
              password: Type.String({ minLength: 10, maxLength: 1024 }),
              name: Type.String({ minLength: 1, maxLength: 200 }),
              phone: Type.Optional(Type.String({ maxLength: 32 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Session, 409: Type.Ref('Error'), 429: Type.Ref('Error') },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await accounts.signup(deps, req.body, { clientAddress: addressKey(req.ip) })),
    );

    app.post(
      '/auth/login',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Log in and get a session token',
          description: [
            'A wrong password and an unknown email answer the same 401 `invalid_credentials` (both run one password check).',
            `Failed sign-ins are counted per (account, client address): after ${accounts.LOGIN_PAIR_LIMIT.limit} in a fixed 15-minute window that address gets 429 \`too_many_attempts\` with \`Retry-After\` for that account, whatever the password; other addresses are not affected. A client address is also limited to ${accounts.LOGIN_ADDRESS_LIMIT.limit} failures over all accounts.`,
            'A successful sign-in sets the device cookie `svc_device` (HttpOnly, Secure, SameSite=Lax, a year; signed, nothing stored server-side). A browser that sends it back for the same account is counted on its own (account, device) bucket of the same size, and is not limited by anyone else\'s failures — neither per address nor the account-wide lock below. A password reset or "sign out everywhere" ends its standing.',
            `Past ${accounts.LOGIN_ACCOUNT_LOCK.limit} failures for one account from all addresses in 15 minutes, sign-in to it is locked until its password is reset: 403 \`password_reset_required\` (an unknown email answers the same while its counter is over), and a reset link is mailed to the owner once. The reset clears the account's failure count with the lock, so the owner signs in at once and only a fresh run of failures locks it again.`,
          ].join('\n\n'),
          body: Type.Object(
            { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 1024 }) },
            { additionalProperties: false },
          ),
          response: { 200: Session, 401: Type.Ref('Error'), 403: Type.Ref('Error'), 429: Type.Ref('Error') },
        },
      },
      async (req, reply) => {
        const { device, ...session } = await accounts.login(
          deps,
          req.body,
          addressKey(req.ip),
          readDeviceCookie(req.headers.cookie),
        );
        reply.header('set-cookie', deviceSetCookie(device));
        return session;
      },
    );

    app.get(
      '/auth/verify',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary:
            'Open the verification link (leads to the dashboard, which confirms for the signed-in owner)',
          description:
            "The link of the verification mail: 303 to `/dashboard/verify?token=…`. There, signed in to the account the token was issued to, the address is confirmed at once, with no further button; signed out, the dashboard asks to sign in and comes back to confirm. Opening the link without a session of that account changes nothing (mail scanners open links). Programs confirm with `POST /auth/verify` and the account's idToken.",
          querystring: Type.Object({ token: Type.Optional(TOKEN) }),
          response: {
            303: {
              description: 'To the dashboard’s confirmation, which needs the account’s session.',
              type: 'null',
            },
          } as never,
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
        const token = req.query.token ?? '';
        return reply.redirect(`/dashboard/verify?token=${encodeURIComponent(token)}`, 303);
      },
    );

    app.post(
      '/auth/verify',
      {
        config: { auth: { kind: 'session', refusal: 'session_required' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Verify the email address with the token of the verification mail',
          description:
            "Marks the address verified, only with a session of the account the token was issued to: `Authorization: Bearer <idToken>` of that account (the dashboard confirms through its own form, with the session cookie and the form's CSRF token). Without one, or with another account's session: 401 `session_required`, and nothing changes. 400 `invalid_verification_token` (unknown), `verification_token_expired` (older than 48 hours) or `verification_token_used` (a token works once).",
          body: Type.Object({ token: TOKEN }, { additionalProperties: false }),
          response: {
            200: Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(true) }),
            400: Type.Ref('Error'),
            401: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        const outcome = await accounts.verifyEmail(deps, req.body.token, sessionPrincipal(req).userId);
        if (!outcome.ok) throw appError(outcome.code, outcome.message);
        return { success: true as const, emailVerified: true as const };
      },
    );

    app.post(
      '/auth/password/forgot',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Ask for a password reset link',
          description: `Always answers 202 the same way, whether or not an account has the address. For an existing account a mail with \`{BASE_URL}/auth/password/reset?token=…\` is sent (single use, valid 60 minutes, stored only as a hash); at most ${accounts.RESET_MAIL_LIMIT.limit} such mails an hour per account (more requests are answered alike and send nothing). 400 \`invalid_email\` only for text that is not an address at all.`,
          body: Type.Object({ email: Type.String({ maxLength: 254 }) }, { additionalProperties: false }),
          response: { 202: OK, 400: Type.Ref('Error') },
        },
      },
      async (req, reply) => {
        await passwords.forgotPassword(deps, req.body.email);
        return reply.code(202).send({ success: true as const });
      },
    );

    app.post(
      '/auth/password/reset',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Set a new password with the token of the reset link',
          description:
            "Sets the password, marks the address verified (the mailbox proved it), lifts a sign-in lock, ends every session of the account (idTokens issued before are refused with 401 `session_ended`; dashboard sessions are deleted; device cookies lose their standing) and mails a notice. The token works once, for 60 minutes, and using it ends the account's other reset links. API keys are not revoked: an owner taking back an account someone else created should review its keys. 400 `invalid_reset_token` (unknown, used or expired; the sentence says which), `weak_password`.",
          body: Type.Object({ token: RESET_TOKEN, password: NEW_PASSWORD }, { additionalProperties: false }),
          response: {
            200: Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(true) }),
            400: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        await passwords.resetPassword(deps, req.body);
        return { success: true as const, emailVerified: true as const };
      },
    );

    app.post(
      '/auth/password/change',
      {
        config: { auth: { kind: 'session' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Change the password (signed in)',
          description: `Checks \`currentPassword\` (403 \`wrong_password\`; after ${accounts.CHANGE_LIMIT.limit} wrong ones in 15 minutes 429 \`too_many_attempts\`), sets \`newPassword\`, ends every other session of the account (earlier idTokens answer 401 \`session_ended\`, dashboard sessions are deleted) and mails a notice. Answers a new session for the caller.`,
          body: Type.Object(
            { currentPassword: Type.String({ maxLength: 1024 }), newPassword: NEW_PASSWORD },
            { additionalProperties: false },
          ),
          response: { 200: Session, 400: Type.Ref('Error'), 403: Type.Ref('Error'), 429: Type.Ref('Error') },
        },
      },
      async (req) => passwords.changePassword(deps, sessionPrincipal(req).userId, req.body),
    );

    app.post(
      '/auth/logout-everywhere',
      {
        config: { auth: { kind: 'session' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Sign out everywhere',
          description:
            'Ends every session of the account: every idToken issued so far (this one included) answers 401 `session_ended`, every dashboard session is deleted, and device cookies lose their standing.',
          response: { 200: OK },
        },
      },
      async (req) => {
        await passwords.logoutEverywhere(deps, sessionPrincipal(req).userId);
        return { success: true as const };
      },
    );

    app.post(
      '/auth/verify/resend',
      {
        config: { auth: { kind: 'session' } },
        schema: {
          tags: ['dashboard'],
          summary: 'Send a new verification mail',
          description: `Queues a new verification mail to the account's address (earlier links stay valid until they expire). One email address gets at most \`VERIFY_MAIL_LIMIT_PER_HOUR\` verification mails an hour (default 5), the sign-up's own included (429 \`too_many_attempts\` with \`Retry-After\` beyond); 409 \`email_already_verified\` when there is nothing to verify.`,
          response: {
            202: Type.Object({ success: Type.Literal(true), emailVerified: Type.Literal(false) }),
            409: Type.Ref('Error'),
          },
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
        schema: {
          tags: ['identity'],
          summary: 'The account and key behind this request',
          response: { 200: Me },
        },
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
