// Sign-in (docs/decisions/14-trust-and-safety-second-round.md, 25-organiser-teams-and-roles.md):
// the password, then, for a person with two-factor on, a code or recovery code. Both steps count
// on the same sign-in limits, so a code cannot be guessed faster than a password.
import { SignJWT, jwtVerify } from 'jose';
import { enqueue } from '../../jobs/queue.js';
import type { LimitWindow } from '../../http/rate-limit.js';
import { unauthorized } from '../../lib/errors.js';
import * as repo from './accounts.repo.js';
import {
  type AccountDeps,
  accountBucket,
  isEmailVerified,
  LOGIN_ACCOUNT_LOCK,
  LOGIN_ADDRESS_LIMIT,
  LOGIN_PAIR_LIMIT,
  passwordResetJob,
  passwordResetRequired,
  type SessionAnswer,
  sha256,
  tooManyAttempts,
} from './accounts.service.js';
import { deviceCookieValue, knownDevice } from './devices.js';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { checkSecondFactor, isEnabled, type TwoFactorDeps } from './two-factor.js';

export type SignInDeps = AccountDeps & { config: AccountDeps['config'] & TwoFactorDeps['config'] };

/** How long the code may follow the password. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
const CHALLENGE_AUDIENCE = 'two-factor-challenge';

export type SignedIn = SessionAnswer & { device: string };
/** The password was right and a second factor is due: send it with `challenge`. */
export interface TwoFactorDue {
  twoFactorRequired: true;
  challenge: string;
  expiresAt: string;
}

type User = NonNullable<repo.UserRow>;

/**
 * Counts one sign-in attempt up front (so concurrent guesses cannot overtake a limit) on the
 * §14 buckets: a browser whose device cookie holds a valid entry for the account on its own
 * (account, device) bucket only, so other people's failures never lock it out; else per
 * (account, address), per address, and per account from everywhere, past which the account is
 * locked until a password reset (the reset link is mailed once). Answers how to take it back.
 */
async function countAttempt(
  deps: AccountDeps,
  email: string,
  user: User | undefined,
  clientAddress: string,
  deviceCookie: string | undefined,
): Promise<() => Promise<void>> {
  const now = deps.clock.now();
  // The email is hashed so that counters (in Redis too) hold no addresses.
  const id = sha256(email);
  const device = user ? knownDevice(deps.config.sessionSecret, deviceCookie, user, now) : undefined;
  if (device === undefined && user?.login_locked_at) throw passwordResetRequired();
  const buckets: [string, LimitWindow][] =
    device !== undefined
      ? [[`login:device:${id}:${device}`, LOGIN_PAIR_LIMIT]]
      : [
          [`login:pair:${id}:${clientAddress}`, LOGIN_PAIR_LIMIT],
          [`login:address:${clientAddress}`, LOGIN_ADDRESS_LIMIT],
          [accountBucket(email), LOGIN_ACCOUNT_LOCK],
        ];
  const counted: [string, LimitWindow][] = [];
  const release = async () => {
    for (const [b, w] of counted) await deps.rateLimiter.release(b, now, w);
  };
  for (const [bucket, window] of buckets) {
    const r = await deps.rateLimiter.hit(bucket, now, window);
    counted.push([bucket, window]);
    if (r.count <= r.limit) continue;
    await release();
    if (window !== LOGIN_ACCOUNT_LOCK) throw tooManyAttempts(r, 'too many failed sign-in attempts');
    if (user && (await repo.lockLogin(deps.db, user.id, now))) {
      await enqueue(deps.db, deps, passwordResetJob, { userId: user.id, reason: 'locked' });
      deps.jobs?.kick();
    }
    throw passwordResetRequired();
  }
  return release;
}

/**
 * The password step. A wrong password and an unknown email take the same path: one password
 * check each (against a dummy hash for an unknown email) and the same answer. A person with
 * two-factor on gets a challenge instead of a session.
 */
export async function login(
  deps: SignInDeps,
  input: { email: string; password: string },
  clientAddress: string,
  deviceCookie?: string,
): Promise<SignedIn | TwoFactorDue> {
  const email = input.email.trim().toLowerCase();
  const user = await repo.findUserByEmail(deps.db, email);
  const release = await countAttempt(deps, email, user, clientAddress, deviceCookie);
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
  if (!user || !ok) throw unauthorized('invalid_credentials', 'email or password is wrong');
  await release();
  if (needsRehash(user.password_hash)) {
    await repo.setPasswordHash(deps.db, user.id, await hashPassword(input.password));
  }
  if (await isEnabled(deps.db, user.id)) return challengeFor(deps, user);
  return signedIn(deps, user, deviceCookie);
}

async function signedIn(deps: AccountDeps, user: User, deviceCookie: string | undefined): Promise<SignedIn> {
  return {
    userId: user.id,
    ...(await deps.sessions.issue(user.id, user.session_epoch)),
    emailVerified: isEmailVerified(user),
    device: deviceCookieValue(deps.config.sessionSecret, deviceCookie, user, deps.clock.now()),
  };
}

async function challengeFor(deps: AccountDeps, user: User): Promise<TwoFactorDue> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const exp = now + CHALLENGE_TTL_SECONDS;
  const challenge = await new SignJWT({ ep: user.session_epoch })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setAudience(CHALLENGE_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(deps.config.sessionSecret));
  return { twoFactorRequired: true, challenge, expiresAt: new Date(exp * 1000).toISOString() };
}

/** The person a challenge was issued to, while it is valid and their sessions were not ended since. */
async function challengedUser(deps: AccountDeps, challenge: string): Promise<User> {
  const refused = unauthorized('invalid_two_factor_challenge');
  let sub: string;
  let ep: unknown;
  try {
    const { payload } = await jwtVerify(challenge, new TextEncoder().encode(deps.config.sessionSecret), {
      audience: CHALLENGE_AUDIENCE,
      algorithms: ['HS256'],
      currentDate: deps.clock.now(),
    });
    if (typeof payload.sub !== 'string') throw refused;
    sub = payload.sub;
    ep = payload.ep;
  } catch {
    throw refused;
  }
  const user = await repo.findUserById(deps.db, sub);
  if (!user || ep !== user.session_epoch) throw refused;
  return user;
}

/**
 * The second step: a TOTP code or a recovery code after a challenge. A wrong one counts as a
 * failed sign-in on the same buckets as a wrong password; a right one is taken back.
 */
export async function completeTwoFactor(
  deps: SignInDeps,
  input: { challenge: string; code?: string | undefined; recoveryCode?: string | undefined },
  clientAddress: string,
  deviceCookie?: string,
): Promise<SignedIn> {
  const user = await challengedUser(deps, input.challenge);
  const release = await countAttempt(deps, user.email, user, clientAddress, deviceCookie);
  if (!(await checkSecondFactor(deps, user.id, input))) throw unauthorized('invalid_two_factor_code');
  await release();
  return signedIn(deps, user, deviceCookie);
}
