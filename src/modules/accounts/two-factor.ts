// Two-factor sign-in (docs/decisions/25-organiser-teams-and-roles.md): TOTP per person (RFC 6238:
// 30-second steps, 6 digits, one step either side accepted) with ten single-use recovery codes.
// Time comes from the injected clock. The secret is kept sealed under SECRETS_KEY; recovery codes
// as sha256 hashes. A code is taken at most once: its time step must be later than the last one
// taken (one conditional UPDATE, so two concurrent uses of one code cannot both pass).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { enqueue } from '../../jobs/queue.js';
import type { LimitWindow, RateLimiter } from '../../http/rate-limit.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound, unauthorized } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { open, seal } from '../../lib/secret-box.js';
import * as audit from '../audit/audit.service.js';
import * as accountsRepo from './accounts.repo.js';
import { passwordNoticeJob, sha256, tooManyAttempts } from './accounts.service.js';
import { verifyPassword } from './passwords.js';
import * as repo from './two-factor.repo.js';

/** otplib (with its own hashing and base32 code) loads at the first two-factor use: most processes never see one. */
const otp = () => import('otplib');

export interface TwoFactorDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  rateLimiter: RateLimiter;
  config: { secretsKey: Buffer };
  /** Asked to look for the notice mail soon. */
  jobs?: { kick(): void } | undefined;
}

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** The issuer authenticator apps show beside the account. */
export const TOTP_ISSUER = 'Ticketing';
/** Wrong codes or passwords when disabling or regenerating, per person (sign-in has the §14 limits). */
export const PROOF_LIMIT: LimitWindow = { limit: 10, windowMs: 15 * 60_000 };

const CODE_SHAPE = /^\d{6}$/;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as people type it: case, spaces and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Ten codes like `k7m2p-x9qrt` (50 bits each), and the hashes that are stored. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes: string[] = [];
  for (let i = 0; i < RECOVERY_CODE_COUNT; i++) {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
    codes.push(`${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`);
  }
  return { codes, hashes: codes.map((c) => sha256(normaliseRecoveryCode(c))) };
}

/** The time step a code of `secret` matches at `now` (one step either side), else undefined. */
export async function matchingStep(
  secret: string,
  code: string,
  now: Date,
  afterStep?: number,
): Promise<number | undefined> {
  if (!CODE_SHAPE.test(code)) return undefined;
  const { verify } = await otp();
  const r = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: TOTP_PERIOD_SECONDS,
    digits: TOTP_DIGITS,
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep === undefined ? {} : { afterTimeStep: afterStep }),
  });
  return r.valid && 'timeStep' in r ? r.timeStep : undefined;
}

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** Off, and an organisation of theirs requires it: only their own sign-in routes are open. */
  enrolmentRequired: boolean;
}

export async function status(db: Kysely<Database>, personId: string): Promise<TwoFactorStatus> {
  const row = await repo.findTwoFactor(db, personId);
  const enabled = row?.enabled_at != null;
  return {
    enabled,
    recoveryCodesLeft: enabled ? await repo.recoveryCodesLeft(db, personId) : 0,
    enrolmentRequired: !enabled && (await repo.requiredOfPerson(db, personId)),
  };
}

export const isEnabled = async (db: Kysely<Database>, personId: string) =>
  (await repo.findTwoFactor(db, personId))?.enabled_at != null;

/** Which of these people have two-factor on (the members list shows it). */
export const enabledAmong = repo.enabledAmong;

const uriOf = async (email: string, secret: string) =>
  (await otp()).generateURI({
    issuer: TOTP_ISSUER,
    label: email,
    secret,
    period: TOTP_PERIOD_SECONDS,
    digits: TOTP_DIGITS,
  });

/** The secret of an enrolment started and not yet confirmed (the dashboard shows it again after a wrong code). */
export async function pendingEnrolment(deps: TwoFactorDeps, person: { id: string; email: string }) {
  const row = await repo.findTwoFactor(deps.db, person.id);
  if (!row || row.enabled_at !== null) return undefined;
  const secret = open(deps.config.secretsKey, row.secret_sealed);
  return { secret, otpauthUri: await uriOf(person.email, secret) };
}

/** Starts enrolment: a new secret, kept sealed until a first code confirms it. */
export async function startEnrolment(deps: TwoFactorDeps, person: { id: string; email: string }) {
  const secret = (await otp()).generateSecret();
  const saved = await repo.savePending(
    deps.db,
    person.id,
    seal(deps.config.secretsKey, secret),
    deps.clock.now(),
  );
  if (!saved) throw conflict('two_factor_already_enabled', 'two-factor sign-in is already set up');
  return { secret, otpauthUri: await uriOf(person.email, secret) };
}

/** Completes enrolment with a valid code: two-factor is on, and the recovery codes are answered once. */
export async function confirmEnrolment(deps: TwoFactorDeps, personId: string, code: string) {
  const row = await repo.findTwoFactor(deps.db, personId);
  if (!row) throw conflict('two_factor_enrolment_not_started');
  if (row.enabled_at !== null) throw conflict('two_factor_already_enabled');
  const secret = open(deps.config.secretsKey, row.secret_sealed);
  const step = await matchingStep(secret, code.trim(), deps.clock.now());
  if (step === undefined) throw unauthorized('invalid_two_factor_code');
  const { codes, hashes } = newRecoveryCodes();
  const enabled = await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.enable(trx, personId, row.secret_sealed, step, deps.clock.now()))) return false;
    await repo.replaceRecoveryCodes(trx, personId, hashes, deps.clock.now());
    return true;
  });
  if (!enabled) throw conflict('two_factor_already_enabled');
  return { recoveryCodes: codes };
}

/**
 * Checks a second factor at sign-in: a TOTP code (taken once, by its time step) or a recovery
 * code (used once). True when it holds; the caller counts the attempt.
 */
export async function checkSecondFactor(
  deps: TwoFactorDeps,
  personId: string,
  given: { code?: string | undefined; recoveryCode?: string | undefined },
): Promise<boolean> {
  const row = await repo.findTwoFactor(deps.db, personId);
  if (!row || row.enabled_at === null) return false;
  const now = deps.clock.now();
  if (given.code !== undefined && given.code.trim() !== '') {
    const secret = open(deps.config.secretsKey, row.secret_sealed);
    const last = row.last_step === null ? undefined : Number(row.last_step);
    const step = await matchingStep(secret, given.code.trim(), now, last);
    return step !== undefined && (await repo.takeStep(deps.db, personId, step));
  }
  if (given.recoveryCode !== undefined) {
    const code = normaliseRecoveryCode(given.recoveryCode);
    if (code === '') return false;
    // The code is spent and the person told, together: a stolen code's use does not go unnoticed.
    const used = await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.useRecoveryCode(trx, personId, sha256(code), now))) return false;
      const codesLeft = await repo.recoveryCodesLeft(trx, personId);
      await enqueue(trx, deps, passwordNoticeJob, {
        userId: personId,
        what: 'recovery_code_used',
        codesLeft,
      });
      return true;
    });
    if (used) deps.jobs?.kick();
    return used;
  }
  return false;
}

/**
 * Proves the person at hand before disabling or new recovery codes: a current code or their
 * password, wrong ones limited per person (429 `too_many_attempts`).
 */
async function prove(
  deps: TwoFactorDeps,
  personId: string,
  proof: { code?: string | undefined; password?: string | undefined },
): Promise<void> {
  if (!proof.code && !proof.password) throw badRequest('two_factor_proof_required');
  const bucket = `two-factor-proof:${personId}`;
  const now = deps.clock.now();
  const r = await deps.rateLimiter.hit(bucket, now, PROOF_LIMIT);
  if (r.count > r.limit) throw tooManyAttempts(r, 'too many wrong codes or passwords');
  const ok = proof.code
    ? await checkSecondFactor(deps, personId, { code: proof.code })
    : await verifyPassword(
        proof.password!,
        (await accountsRepo.findUserById(deps.db, personId))!.password_hash,
      );
  if (!ok)
    throw unauthorized(
      proof.code ? 'invalid_two_factor_code' : 'invalid_credentials',
      proof.code ? undefined : 'the password is wrong',
    );
  await deps.rateLimiter.release(bucket, now, PROOF_LIMIT);
}

/** Turns two-factor off (its secret and recovery codes are deleted). */
export async function disable(
  deps: TwoFactorDeps,
  personId: string,
  proof: { code?: string | undefined; password?: string | undefined },
): Promise<void> {
  if (!(await isEnabled(deps.db, personId))) throw conflict('two_factor_not_enabled');
  await prove(deps, personId, proof);
  await deps.db.transaction().execute(async (trx) => {
    await repo.remove(trx, personId);
    await enqueue(trx, deps, passwordNoticeJob, { userId: personId, what: 'two_factor_off' });
  });
  deps.jobs?.kick();
}

/**
 * Platform staff turn a person's two-factor off when they have lost both their phone and their
 * recovery codes, after proving who they are outside the service; the reason goes into the audit
 * log and the person is mailed, as when they turn it off themselves. An organisation that
 * requires it sends them to enrolment at their next sign-in.
 */
export async function resetByStaff(
  deps: Pick<TwoFactorDeps, 'db' | 'clock' | 'ids' | 'jobs'>,
  staff: { userId: string; email: string; isStaff: boolean },
  personId: string,
  reason: string,
): Promise<void> {
  const why = reason.trim();
  if (why === '')
    throw badRequest('invalid_field', 'reason: say how the person proved who they are', { field: 'reason' });
  if (!(await accountsRepo.findUserById(deps.db, personId)))
    throw notFound('no such account', 'account_not_found');
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.findTwoFactor(trx, personId))?.enabled_at) throw conflict('two_factor_not_enabled');
    await repo.remove(trx, personId);
    await enqueue(trx, deps, passwordNoticeJob, { userId: personId, what: 'two_factor_off' });
    await audit.recordChange(trx, deps, {
      accountId: personId,
      mode: 'live',
      actor: audit.actorOfSession(staff, true),
      action: 'account.two_factor_reset',
      target: { type: 'account', id: personId },
      before: { twoFactor: true },
      after: { twoFactor: false, reason: why },
    });
  });
  deps.jobs?.kick();
}

/** Ten new recovery codes, answered once; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: TwoFactorDeps,
  personId: string,
  proof: { code?: string | undefined; password?: string | undefined },
) {
  if (!(await isEnabled(deps.db, personId))) throw conflict('two_factor_not_enabled');
  await prove(deps, personId, proof);
  const { codes, hashes } = newRecoveryCodes();
  await deps.db
    .transaction()
    .execute((trx) => repo.replaceRecoveryCodes(trx, personId, hashes, deps.clock.now()));
  return { recoveryCodes: codes };
}

export const isRequiredBy = repo.isRequired;

/**
 * An owner or admin sets whether the organisation requires two-factor of its members; turning
 * it on needs their own two-factor first, so nobody locks themselves out of the setting. The
 * change goes into the live-mode audit log, as membership changes do.
 */
export async function setRequired(
  deps: Pick<TwoFactorDeps, 'db' | 'clock'> & { ids: Ids },
  actor: { userId: string; personId: string; email: string; isStaff: boolean },
  required: boolean,
): Promise<void> {
  if (required && !(await isEnabled(deps.db, actor.personId)))
    throw conflict(
      'two_factor_not_enabled',
      'set up two-factor sign-in for yourself before requiring it of the organisation',
    );
  await deps.db.transaction().execute(async (trx) => {
    const before = await repo.isRequired(trx, actor.userId);
    if (before === required) return;
    await repo.setRequired(trx, actor.userId, required);
    await audit.recordChange(trx, deps, {
      accountId: actor.userId,
      mode: 'live',
      actor: audit.actorOfSession(actor),
      action: 'organisation.two_factor_requirement',
      target: { type: 'organisation', id: actor.userId },
      before: { twoFactorRequired: before },
      after: { twoFactorRequired: required },
    });
  });
}
