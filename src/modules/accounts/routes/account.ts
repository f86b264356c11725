// What the account operations share: their deps, auth rules, the session they answer and the
// fields of their bodies.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { Ids } from '../../../lib/ids.js';
import type { SessionSigner } from '../sessions.js';
import type { RateLimiter } from '../../../http/rate-limit.js';
import type { JobRunner } from '../../../jobs/queue.js';
import type { Config } from '../../../config.js';
import type { Db } from '../../../lib/db-handle.js';
import { EX } from '../../../http/examples.js';

/** What the account operations need. */
export interface AccountsDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  sessions: SessionSigner;
  rateLimiter: RateLimiter;
  jobs: JobRunner;
  config: Config;
  endDashboardSessions: (db: Db, userId: string, keep?: string) => Promise<void>;
}

/** Sign-up, sign-in and the links of the mails need no credentials. */
export const PUBLIC = { kind: 'public' } as const;
/** The signed-in owner's operations. */
export const SESSION = { kind: 'session' } as const;

export const EMAIL_VERIFIED = Type.Boolean({
  description:
    'Whether the account has proved its email address by the verification mail. Until it has, live keys cannot be created (403 `email_unverified`), payouts are refused and `STAFF_EMAILS` grants nothing.',
});

export const Session = Type.Object({
  userId: Type.String(),
  idToken: Type.String({
    description: 'Send as `Authorization: Bearer <idToken>` to dashboard routes and event deletion.',
  }),
  expiresAt: Type.String({ format: 'date-time' }),
  emailVerified: EMAIL_VERIFIED,
});

/** The password was right and the person has two-factor on: the code goes with `challenge`. */
export const TwoFactorChallenge = Type.Object({
  twoFactorRequired: Type.Literal(true),
  challenge: Type.String({
    description: 'Send with the code to `POST /auth/login/two-factor`; valid 5 minutes.',
  }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const TOKEN = Type.String({ maxLength: 128, description: 'The token from the verification link.' });
export const RESET_TOKEN = Type.String({
  maxLength: 128,
  description: 'The token from the password reset link.',
});
export const NEW_PASSWORD = Type.String({
  minLength: 10,
  maxLength: 1024,
  description: 'At least 10 characters.',
});
export const OK = Type.Object({ success: Type.Literal(true) });

/** The session a new account or a sign-in answers, as the examples show it. */
export const sessionExample = {
  userId: EX.userId,
  idToken:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlcCI6MCwic3ViIjoidXNyX1lxaHJsVmlMbE9Oa1VPbE8iLCJpc3MiOiJ0aWNrZXRpbmctc2VydmljZSIsImF1ZCI6ImRhc2hib2FyZCIsImlhdCI6MTc5NTU5MzA4NCwiZXhwIjoxNzk1NjM2Mjg0fQ.S9_JjbU-7VaZFWYdTzyOvzdw_pAuMDhp0t7_yBtj89I',
  expiresAt: '2026-11-25T19:51:24.000Z',
  emailVerified: false,
} as const;
