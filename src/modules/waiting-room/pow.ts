// The proof of work a join needs (docs/decisions/26-a-fair-waiting-room.md): an ALTCHA challenge
// (altcha-lib, SHA-256) signed with a key drawn from SECRETS_KEY. Its difficulty is `maxNumber`:
// the answer is a counter drawn below it, so a solver tries maxNumber / 2 hashes on average. The
// challenge names its event and its expiry (by the service's clock) in its signed data; a
// solution is spent once (the store remembers it).
import { createHmac } from 'node:crypto';
import { type Challenge, createChallenge, randomInt, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** How long a challenge may be solved and used. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

export const powSecret = (secretsKey: Buffer) =>
  createHmac('sha256', secretsKey).update('waiting-room-altcha').digest('hex');

export function newChallenge(
  secret: string,
  maxNumber: number,
  eventId: string,
  now: Date,
): Promise<Challenge> {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(maxNumber),
    deriveKey,
    hmacSignatureSecret: secret,
    data: { event: eventId, expires: now.getTime() + CHALLENGE_TTL_MS },
  });
}

export type ProofVerdict = { ok: true; proof: string; expiresAt: Date } | { ok: false };

function decode(payload: string): { challenge: Challenge; solution: Solution } | undefined {
  try {
    const v = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as {
      challenge?: Challenge;
      solution?: Solution;
    };
    if (!v || typeof v !== 'object' || typeof v.challenge?.parameters !== 'object') return undefined;
    if (typeof v.solution?.counter !== 'number' || typeof v.solution.derivedKey !== 'string')
      return undefined;
    return { challenge: v.challenge, solution: v.solution };
  } catch {
    return undefined;
  }
}

/** Whether `payload` (base64 JSON `{ challenge, solution }`, as the ALTCHA widget sends) solves a challenge of ours for this event, unexpired at `now`. */
export async function checkProof(
  secret: string,
  payload: string,
  eventId: string,
  now: Date,
): Promise<ProofVerdict> {
  const p = decode(payload);
  if (!p || typeof p.challenge.signature !== 'string') return { ok: false };
  const data = p.challenge.parameters.data ?? {};
  const expires = Number(data.expires);
  if (data.event !== eventId || !(expires > now.getTime())) return { ok: false };
  try {
    const r = await verifySolution({
      challenge: p.challenge,
      solution: p.solution,
      deriveKey,
      hmacSignatureSecret: secret,
    });
    return r.verified
      ? { ok: true, proof: p.challenge.signature, expiresAt: new Date(expires) }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}
