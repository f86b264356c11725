// Members-only tiers proved by a code mailed to the member's address (docs/decisions/28-a-persons-day.md).
// Asking for a code answers alike for every address: a row is stored for each request, with
// the hash of a secret nobody holds, and the mail job alone decides whether the address holds
// a membership in good standing; only then does it draw the code, store its hash over the
// placeholder and mail it. Trying a code counts against that row whatever the address, so
// neither the answer nor the tries left say who is a member. A right code yields a signed
// proof (account, mode, email, until when) that register accepts in place of a membershipId.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Mode } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { appError, badRequest, forbidden } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import type { LimitWindow, RateLimiter } from '../../http/rate-limit.js';
import { findUsersById } from '../accounts/accounts.service.js';
import type { Mailer, OutgoingMail } from '../mail/mailer.js';
import { recordSandboxMail } from '../mail/sandbox-mail.js';
import { escapeHtml } from '../../lib/html.js';
import { hasGoodStanding } from './memberships.service.js';
import * as repo from './member-codes.repo.js';

/** A code works this long after it was asked for. */
export const MEMBER_CODE_MINUTES = 10;
/** Wrong tries a code takes before it is of no more use. */
export const MEMBER_CODE_TRIES = 5;
/** A proof stays good this long: time to finish the booking. */
export const MEMBER_PROOF_MINUTES = 60;
/** Codes asked for one address, and from one client address, per window. */
export const CODE_REQUESTS_PER_EMAIL: LimitWindow = { limit: 5, windowMs: 15 * 60_000 };
export const CODE_REQUESTS_PER_ADDRESS: LimitWindow = { limit: 20, windowMs: 15 * 60_000 };

export interface MemberCodeDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  rateLimiter: RateLimiter;
  secretsKey: Buffer;
  kickJobs(): void;
}

export interface MemberCodeMailDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
}

export const memberCodeMailJob = defineJob<{ codeId: string }>('membership.code_email');

const normalise = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function codeHash(secretsKey: Buffer, id: string, code: string): string {
  return createHmac('sha256', secretsKey).update(`member-code:${id}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

function limited(retryAfter: number) {
  return appError(
    'too_many_attempts',
    `too many codes asked for; ask again in ${Math.ceil(retryAfter / 60)} minutes`,
    {},
    { 'retry-after': String(retryAfter) },
  );
}

/**
 * Asks for a code for `email` on this account and mode. Answers nothing: the mail goes out
 * only where the address holds a membership in good standing, and the caller cannot tell.
 */
export async function requestMemberCode(
  deps: MemberCodeDeps,
  input: { accountId: string; mode: Mode; email: string; clientAddress: string | null },
): Promise<void> {
  const email = normalise(input.email);
  if (!EMAIL.test(email) || email.length > 254)
    throw badRequest('invalid_email', 'enter an email address, like name@example.com', { field: 'email' });
  const now = deps.clock.now();
  const byEmail = await deps.rateLimiter.hit(`member-code:${email}`, now, CODE_REQUESTS_PER_EMAIL);
  if (byEmail.count > byEmail.limit) throw limited(byEmail.resetSeconds);
  if (input.clientAddress !== null) {
    const byAddress = await deps.rateLimiter.hit(
      `member-code-addr:${input.clientAddress}`,
      now,
      CODE_REQUESTS_PER_ADDRESS,
    );
    if (byAddress.count > byAddress.limit) throw limited(byAddress.resetSeconds);
  }
  const id = deps.ids.make('mcode');
  await deps.db.transaction().execute(async (trx) => {
    // Until the mail job finds a member, the row holds the hash of a secret nobody has.
    await repo.insertMemberCode(trx, {
      id,
      account_id: input.accountId,
      mode: input.mode,
      email,
      code_hash: codeHash(deps.secretsKey, id, deps.ids.secret(32)),
      expires_at: new Date(now.getTime() + MEMBER_CODE_MINUTES * 60_000),
      used_at: null,
      created_at: now,
    });
    await enqueue(trx, deps, memberCodeMailJob, { codeId: id });
  });
  deps.kickJobs();
}

/**
 * Checks the newest code asked for `email`: right → a proof for register; wrong → 400
 * `member_code_wrong`; lapsed, used or never asked → 400 `member_code_expired`; past
 * MEMBER_CODE_TRIES wrong tries → 403 `member_code_tries_used`.
 */
export async function verifyMemberCode(
  deps: Pick<MemberCodeDeps, 'db' | 'clock' | 'secretsKey'>,
  input: { accountId: string; mode: Mode; email: string; code: string },
): Promise<{ proof: string; expiresAt: string }> {
  const email = normalise(input.email);
  const now = deps.clock.now();
  const expired = () =>
    badRequest('member_code_expired', 'this code has expired or was already used; ask for a new one', {
      field: 'code',
    });
  const latest = await repo.latestMemberCode(deps.db, input.accountId, input.mode, email);
  if (!latest || latest.used_at !== null || latest.expires_at <= now) throw expired();
  const counted = await repo.takeMemberCodeTry(deps.db, latest.id, MEMBER_CODE_TRIES, now);
  if (!counted) {
    if (
      latest.attempts >= MEMBER_CODE_TRIES ||
      (await repo.findMemberCode(deps.db, latest.id))!.attempts >= MEMBER_CODE_TRIES
    ) {
      throw forbidden(
        'member_code_tries_used',
        `${MEMBER_CODE_TRIES} wrong tries: this code no longer works; ask for a new one`,
        { field: 'code' },
      );
    }
    throw expired();
  }
  const code = input.code.replace(/\s+/g, '');
  if (!sameHash(codeHash(deps.secretsKey, counted.id, code), counted.code_hash)) {
    const left = MEMBER_CODE_TRIES - counted.attempts;
    if (left <= 0)
      throw forbidden(
        'member_code_tries_used',
        `${MEMBER_CODE_TRIES} wrong tries: this code no longer works; ask for a new one`,
        { field: 'code' },
      );
    throw badRequest(
      'member_code_wrong',
      `this is not the code we mailed; ${left} ${left === 1 ? 'try' : 'tries'} left`,
      { field: 'code', triesLeft: left },
    );
  }
  if (!(await repo.useMemberCode(deps.db, counted.id, now))) throw expired();
  const until = new Date(now.getTime() + MEMBER_PROOF_MINUTES * 60_000);
  return {
    proof: signProof(deps.secretsKey, { a: input.accountId, m: input.mode, e: email, x: until.getTime() }),
    expiresAt: until.toISOString(),
  };
}

interface ProofBody {
  a: string;
  m: Mode;
  e: string;
  x: number;
}

function proofMac(secretsKey: Buffer, body: string): string {
  return createHmac('sha256', secretsKey).update(`member-proof:${body}`).digest('base64url');
}

function signProof(secretsKey: Buffer, p: ProofBody): string {
  const body = Buffer.from(JSON.stringify(p)).toString('base64url');
  return `mpf_${body}.${proofMac(secretsKey, body)}`;
}

/** A proof from a mailed code holds for this account, mode and email, and has not lapsed. */
export function proofHolds(
  secretsKey: Buffer,
  proof: string,
  want: { accountId: string; mode: Mode; email: string; now: Date },
): boolean {
  const m = /^mpf_([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{43})$/.exec(proof);
  if (!m) return false;
  const mac = Buffer.from(proofMac(secretsKey, m[1]!));
  const given = Buffer.from(m[2]!);
  if (mac.length !== given.length || !timingSafeEqual(mac, given)) return false;
  let p: ProofBody;
  try {
    p = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as ProofBody;
  } catch {
    return false;
  }
  return (
    p.a === want.accountId &&
    p.m === want.mode &&
    p.e === normalise(want.email) &&
    typeof p.x === 'number' &&
    p.x > want.now.getTime()
  );
}

export function renderMemberCodeMail(input: {
  to: string;
  code: string;
  organiserName: string | undefined;
  minutes: number;
}): OutgoingMail {
  const who = input.organiserName ? ` with ${input.organiserName}` : '';
  const lines = [
    `Your code for members-only tickets${who}: ${input.code}`,
    `Enter it on the booking page within ${input.minutes} minutes. It works once.`,
    'If you did not ask for it, you can ignore this mail: nobody can use your membership without the code.',
  ];
  return {
    to: input.to,
    subject: `Your members-only code: ${input.code}`,
    text: lines.join('\n\n'),
    html: `<!doctype html><html lang="en"><head><title>Your members-only code</title></head><body style="font-family:sans-serif">
<p>${escapeHtml(`Your code for members-only tickets${who}:`)}</p>
<p style="font-size:1.6em;letter-spacing:0.2em"><strong>${escapeHtml(input.code)}</strong></p>
${lines
  .slice(1)
  .map((l) => `<p>${escapeHtml(l)}</p>`)
  .join('\n')}
</body></html>`,
    ...(input.organiserName ? { fromName: input.organiserName } : {}),
  };
}

/** The mail job: a member in good standing gets a fresh code; any other address gets nothing. */
export async function sendMemberCodeMail(
  deps: MemberCodeMailDeps,
  p: { codeId: string },
  job: { id: string },
): Promise<void> {
  const row = await repo.findMemberCode(deps.db, p.codeId);
  const now = deps.clock.now();
  if (!row || row.used_at !== null || row.expires_at <= now) return;
  if (!(await hasGoodStanding(deps, row.account_id, row.mode, row.email))) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  if (!(await repo.setMemberCodeHash(deps.db, row.id, codeHash(deps.config.secretsKey, row.id, code), now)))
    return;
  const organiserName = (await findUsersById(deps.db, [row.account_id]))[0]?.name;
  const mail = renderMemberCodeMail({ to: row.email, code, organiserName, minutes: MEMBER_CODE_MINUTES });
  if (row.mode === 'test') {
    await recordSandboxMail(deps.db, {
      id: job.id,
      accountId: row.account_id,
      recipients: [mail.to],
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      attachments: [],
      createdAt: now,
    });
    return;
  }
  await deps.mailer.send(mail);
}

/** The hourly sweep: codes that lapsed before `before` go. */
export function pruneMemberCodes(db: Kysely<Database>, before: Date): Promise<void> {
  return repo.pruneMemberCodes(db, before);
}
