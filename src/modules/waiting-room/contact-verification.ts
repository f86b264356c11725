// Joining the waiting room in two steps (docs/decisions/26-a-fair-waiting-room.md): `join` checks
// the proof of work and the per-address limit and sends a one-time code to the contact; `verify`
// takes the code back and makes or finds the verified contact's place. A contact that never
// proves it holds the mailbox (or the phone) gets no place.
import { createHmac } from 'node:crypto';
import { enqueue } from '../../jobs/queue.js';
import { appError, badRequest, forbidden } from '../../lib/errors.js';
import { normalisePhone } from '../../lib/phone.js';
import { seal } from '../../lib/secret-box.js';
import { codeJob } from './code-delivery.js';
import {
  CODE_TTL_MS,
  CODES_PER_CONTACT_HOUR,
  codeMac,
  MAX_ATTEMPTS,
  maskEmail,
  maskPhone,
} from './one-time-code.js';
import { checkProof } from './pow.js';
import type { Channel } from './queue-store.js';
import { normaliseEmail, statusToken } from './queue-tokens.js';
import { keepUntil, type OnRoom, openIfDue, roomOf, type WaitingRoomDeps } from './waiting-room.service.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const VERIFICATION_ID = /^wv_[A-Za-z0-9_-]{1,64}$/;

async function limitJoins(deps: WaitingRoomDeps, address: string, now: Date): Promise<void> {
  const r = await deps.rateLimiter.hit(`queue-join:${address}`, now, {
    limit: deps.joinsPerAddressMinute,
    windowMs: 60_000,
  });
  if (r.count <= r.limit) return;
  throw appError(
    'too_many_joins',
    `at most ${r.limit} joins a minute from one address; retry after ${r.resetSeconds} s`,
    {},
    { 'retry-after': String(r.resetSeconds) },
  );
}

/**
 * At most CODES_PER_CONTACT_HOUR codes to one contact for one event an hour, counted only once
 * the join's proof of work was good (so nobody locks a stranger out without paying for it). The
 * bucket names the contact by an HMAC under the code key, never in clear.
 */
async function limitCodes(deps: WaitingRoomDeps, eventId: string, contact: string, now: Date) {
  const who = createHmac('sha256', deps.codeKey).update(contact).digest('base64url').slice(0, 22);
  const r = await deps.rateLimiter.hit(`queue-code:${eventId}:${who}`, now, {
    limit: CODES_PER_CONTACT_HOUR,
    windowMs: 3_600_000,
  });
  if (r.count <= r.limit) return;
  throw appError(
    'too_many_codes',
    `at most ${r.limit} codes an hour go to one contact for this event; retry after ${r.resetSeconds} s`,
    {},
    { 'retry-after': String(r.resetSeconds) },
  );
}

export interface JoinInput {
  email: string;
  phone?: string | undefined;
  channel?: Channel | undefined;
  altcha?: string | undefined;
}

/** The contact, checked: the email always; the phone when given (needed for WhatsApp). */
function contactOf(deps: WaitingRoomDeps, input: JoinInput) {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email))
    throw badRequest('invalid_email', 'email is not an email address', { field: 'email' });
  const channel = input.channel ?? 'email';
  const phone = input.phone === undefined ? null : normalisePhone(input.phone);
  if (phone === undefined) throw badRequest('invalid_phone', undefined, { field: 'phone' });
  if (channel === 'whatsapp' && phone === null)
    throw badRequest('phone_required', 'a code by WhatsApp needs a phone number', { field: 'phone' });
  if (channel === 'whatsapp' && !deps.sendsCodesByWhatsApp)
    throw badRequest('channel_unavailable', undefined, { field: 'channel' });
  return { email, phone, channel };
}

export interface Joining {
  verificationId: string;
  channel: Channel;
  sentTo: string;
  expiresAt: string;
}

/** Step one: a solved challenge, then a one-time code on its way to the contact. No place yet. */
export async function join(
  deps: WaitingRoomDeps,
  slug: string,
  input: JoinInput,
  clientAddress: string,
): Promise<Joining> {
  const ev = await roomOf(deps, slug);
  const now = deps.clock.now();
  await limitJoins(deps, clientAddress, now);
  const { email, phone, channel } = contactOf(deps, input);
  if (!input.altcha) throw forbidden('proof_of_work_required');
  const proof = await checkProof(deps.powSecret, input.altcha, ev.id, now);
  if (!proof.ok || !(await deps.store.spendProof(proof.proof, now, proof.expiresAt)))
    throw forbidden('proof_of_work_invalid');
  const to = channel === 'whatsapp' ? phone! : email;
  await limitCodes(deps, ev.id, to, now);
  const id = deps.ids.make('wv', 16);
  const code = deps.newCode(id);
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  await deps.store.startVerification(
    ev.id,
    { id, email, phone, channel, codeMac: codeMac(deps.codeKey, id, code), expiresAt },
    now,
  );
  await enqueue(deps.db, deps, codeJob, {
    verificationId: id,
    eventId: ev.id,
    channel,
    to,
    sealedCode: seal(deps.secretsKey, code),
    expiresAt: expiresAt.toISOString(),
  });
  return {
    verificationId: id,
    channel,
    sentTo: channel === 'whatsapp' ? maskPhone(to) : maskEmail(to),
    expiresAt: expiresAt.toISOString(),
  };
}

/** Step two: the code back. The verified contact's place (one per verified email, one per verified phone). */
export async function verify(
  deps: WaitingRoomDeps,
  slug: string,
  input: { verificationId: string; code: string },
): Promise<{ placeId: string; statusToken: string }> {
  const ev: OnRoom = await roomOf(deps, slug);
  if (!VERIFICATION_ID.test(input.verificationId)) throw badRequest('invalid_verification');
  const now = deps.clock.now();
  await openIfDue(deps, ev, now);
  const r = await deps.store.verify(ev.id, {
    verificationId: input.verificationId,
    codeMac: codeMac(deps.codeKey, input.verificationId, input.code),
    placeId: deps.ids.make('wp', 16),
    now,
    maxAttempts: MAX_ATTEMPTS,
    keepUntil: keepUntil(ev, now),
  });
  switch (r.kind) {
    case 'unknown':
      throw badRequest('invalid_verification');
    case 'expired':
      throw badRequest('code_expired');
    case 'spent':
      throw appError('too_many_attempts', `${MAX_ATTEMPTS} wrong codes: join again for a new one`);
    case 'wrong':
      throw badRequest(
        'invalid_code',
        `the code is not the one sent; ${r.attemptsLeft} ${r.attemptsLeft === 1 ? 'try' : 'tries'} left`,
        { attemptsLeft: r.attemptsLeft },
      );
  }
  if (!r.existing) deps.metrics.joined();
  return { placeId: r.placeId, statusToken: statusToken(deps.secretsKey, ev.id, r.placeId) };
}
