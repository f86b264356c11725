// Dashboard session tokens: HS256 JWTs signed with SESSION_SECRET, checked against
// the injected clock so expiry can be tested without waiting.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../../lib/clock.js';
import { unauthorized } from '../../lib/errors.js';

const ISSUER = 'ticketing-service';
const AUDIENCE = 'dashboard';
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

export interface SessionSigner {
  /** `epoch` is the account's session epoch now: raising it later refuses this token. */
  /** `organisationId`: the organisation the token works in (§25); without it, the person's first. */
  issue(
    userId: string,
    epoch?: number,
    organisationId?: string,
  ): Promise<{ idToken: string; expiresAt: string }>;
  verify(token: string): Promise<{ userId: string; epoch: number; organisationId: string | null }>;
}

export function createSessionSigner(secret: string, clock: Clock): SessionSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(userId, epoch = 0, organisationId) {
      const now = Math.floor(clock.now().getTime() / 1000);
      const exp = now + SESSION_TTL_SECONDS;
      const idToken = await new SignJWT(
        organisationId === undefined ? { ep: epoch } : { ep: epoch, org: organisationId },
      )
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(key);
      return { idToken, expiresAt: new Date(exp * 1000).toISOString() };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: clock.now(),
        });
        if (typeof payload.sub !== 'string')
          throw unauthorized('invalid_session', 'session token has no subject');
        // Tokens from before epochs existed carry none: epoch 0.
        const epoch = payload.ep === undefined ? 0 : payload.ep;
        if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch))
          throw unauthorized('invalid_session', 'session token is not valid');
        const org = payload.org === undefined ? null : payload.org;
        if (org !== null && typeof org !== 'string')
          throw unauthorized('invalid_session', 'session token is not valid');
        return { userId: payload.sub, epoch, organisationId: org };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired)
          throw unauthorized('session_expired', 'session token has expired; log in again');
        throw unauthorized('invalid_session', 'session token is not valid');
      }
    },
  };
}
