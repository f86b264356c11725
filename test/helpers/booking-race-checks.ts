// What must hold after a race over one booking, whichever racer won: every answer a 2xx
// or a 409 naming the state; exactly one racer acted (or the combination the race allows);
// the booking ended as the winner's change says; the gateway made at most one refund, of the
// winner's amount and never more than the capture; the ledger keeps what the gateway kept
// (one sale, at most one refund); the balance is the ledger's sum; the audit log holds
// one entry per change made, each with its actor. Every broken rule is listed, not just the first.
import { call } from './http.js';
import type { Answer, Bench, Booking, Effect, Organiser, Racer } from './booking-races.js';

/** The codes a loser may answer with: each names the state the booking was found in. */
export const STATE_CODES = new Set([
  'registration_changed',
  'already_ended',
  'not_confirmed',
  'not_awaiting_approval',
  'registration_not_pending',
  'nothing_to_refund',
  'sold_out',
]);

export const CANCEL = /^registration\.cancel$/;
export const REFUND = /^registration\.refund$/;
export const TRANSFER = /^registration\.transfer$/;
export const APPROVE = /^registration\.approve$/;
export const REJECT = /^registration\.reject$/;
/** docs/decisions/20-booking-lifecycle.md names no verb for these yet: a paid confirmation, and the sweep's expiry of an unpaid booking. */
export const CONFIRM = /^registration\.(confirm|pay)/;
export const EXPIRE = /^registration\.(expire|cancel)/;

/** The end state when the racers in `acted` all answered 2xx; undefined when that combination must not happen. */
export type Expect = (acted: Racer[]) => Effect | undefined;
const exactlyOne: Expect = (acted) => (acted.length === 1 ? acted[0]!.effect : undefined);

const paise = (rupees: number) => Math.round(rupees * 100);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function answerProblems(racers: Racer[], answers: Answer[]): string[] {
  const problems: string[] = [];
  for (const [i, a] of answers.entries()) {
    const name = racers[i]!.name;
    if (a.status === 409 && a.code !== undefined && !STATE_CODES.has(a.code))
      problems.push(`${name} answered 409 ${a.code}, not a state code`);
    else if (a.status !== 409 && (a.status < 200 || a.status >= 300))
      problems.push(`${name} answered ${a.status}: ${a.text}`);
  }
  return problems;
}

/** The gateway's refunds of the booking's payment: the emulator's list, or the sandbox's running total (it keeps no list). */
async function gatewayRefunds(
  bench: Bench,
  org: Organiser,
  b: Booking,
): Promise<{ amounts?: number[]; total: number }> {
  if (b.paymentId === undefined) return { amounts: [], total: 0 };
  if (org.mode === 'test') {
    const row = await bench.hub.deps.db
      .selectFrom('sandbox_payments')
      .select('amount_refunded')
      .where('id', '=', b.paymentId)
      .executeTakeFirstOrThrow();
    return { total: Number(row.amount_refunded) };
  }
  const amounts = bench.rzp.refunds.filter((r) => r.payment_id === b.paymentId).map((r) => Number(r.amount));
  const shown = Number(bench.rzp.payments.get(b.paymentId)!.amount_refunded);
  if (shown !== sum(amounts))
    throw new Error(`the emulator's payment shows ${shown} paise refunded, its refunds ${sum(amounts)}`);
  return { amounts, total: sum(amounts) };
}

function gatewayProblems(
  refunds: { amounts?: number[]; total: number },
  capturedPaise: number,
  want: Effect | undefined,
): string[] {
  const problems: string[] = [];
  if (refunds.amounts && refunds.amounts.length > 1)
    problems.push(
      `the gateway made ${refunds.amounts.length} refunds of one payment: ${refunds.amounts.join(' + ')} paise`,
    );
  if (refunds.total > capturedPaise)
    problems.push(`the gateway refunded ${refunds.total} paise of a ${capturedPaise} paise capture`);
  else if (want && refunds.total !== want.refundPaise)
    problems.push(`the gateway refunded ${refunds.total} paise, not ${want.refundPaise}`);
  return problems;
}

async function ledgerProblems(
  bench: Bench,
  org: Organiser,
  b: Booking,
  capturedPaise: number,
  refundedPaise: number,
): Promise<string[]> {
  const problems: string[] = [];
  const all = (
    await call(bench.procs[0]!.url, 'GET', `/dashboard/api/ledger?mode=${org.mode}&limit=1000`, {
      token: org.token,
    })
  ).body.data as any[];
  const mine = all.filter((e) => e.source.id === b.registrationId);
  const of = (kind: string) => mine.filter((e) => e.kind === kind).map((e) => paise(e.amount));
  const [sales, refunds, reversals] = [of('ticket_sale'), of('ticket_refund'), of('platform_fee_reversal')];
  if (sales.length > 1) problems.push(`the ledger holds ${sales.length} sales of the booking`);
  if (refunds.length > 1)
    problems.push(`the ledger holds ${refunds.length} refunds of the booking: ${refunds.join(', ')} paise`);
  if (reversals.length > 1)
    problems.push(`the ledger holds ${reversals.length} platform-fee reversals of the booking`);
  const kept = sum(sales) + sum(refunds);
  if (kept !== capturedPaise - refundedPaise)
    problems.push(
      `the ledger keeps ${kept} paise of the booking (sales ${sales.join(',') || 'none'}, refunds ${refunds.join(',') || 'none'}) while the gateway kept ${capturedPaise - refundedPaise}`,
    );
  const balance = (
    await call(bench.procs[1]!.url, 'GET', `/dashboard/api/balance?mode=${org.mode}`, { token: org.token })
  ).body;
  const total = sum(all.map((e) => paise(e.amount)));
  if (paise(balance.available) + paise(balance.pending) !== total)
    problems.push(
      `the balance is ${balance.available} + ${balance.pending}, the ledger's sum ${total / 100}`,
    );
  return problems;
}

async function auditProblems(
  org: Organiser,
  b: Booking,
  before: Set<string>,
  want: Effect | undefined,
): Promise<string[]> {
  const entries = (
    (await org.api(0, 'GET', `/api/v1/audit-log?targetId=${b.registrationId}`)).body.data as any[]
  ).filter((e) => !before.has(e.id));
  const problems: string[] = [];
  const actions = entries.map((e) => e.action as string);
  // A refund is claimed (`registration.refund_claim`) before the gateway is asked: one claim per
  // completed refund, and no claim left over (a claim given back is `registration.refund_release`).
  const claims = actions.filter((a) => a === 'registration.refund_claim').length;
  const releases = actions.filter((a) => a === 'registration.refund_release').length;
  const completed = actions.filter((a) => a === 'registration.cancel' || a === 'registration.refund').length;
  if (claims - releases > completed)
    problems.push(
      `the audit log holds ${claims} refund claims, ${releases} released, for ${completed} completed refunds`,
    );
  const left = actions.filter(
    (a) => a !== 'registration.refund_claim' && a !== 'registration.refund_release',
  );
  const matched = (want?.audit ?? []).every((re) => {
    const at = left.findIndex((a) => re.test(a));
    return at >= 0 && left.splice(at, 1).length === 1;
  });
  if (want && (!matched || left.length > 0))
    problems.push(
      `the audit log holds [${actions.join(', ')}] for the race, not one entry each for [${want.audit.map(String).join(', ')}]`,
    );
  for (const e of entries)
    if (!e.actor?.kind || !e.actor?.id) problems.push(`audit entry ${e.action} has no actor`);
  return problems;
}

/**
 * Every rule broken by a race over booking `b` (after `settle`), prefixed by `label` and
 * the answers; `capturedPaise` is what the buyer paid at the gateway (0 for none).
 */
export async function raceProblems(
  bench: Bench,
  org: Organiser,
  b: Booking,
  race: {
    label: string;
    racers: Racer[];
    answers: Answer[];
    auditBefore: Set<string>;
    capturedPaise: number;
    expect?: Expect;
  },
): Promise<string[]> {
  const { racers, answers } = race;
  const problems = answerProblems(racers, answers);
  const acted = racers.filter(
    (_, i) => answers[i]!.acted ?? (answers[i]!.status >= 200 && answers[i]!.status < 300),
  );
  const want = (race.expect ?? exactlyOne)(acted);
  if (!want)
    problems.push(
      `${acted.length} racers acted (${acted.map((r) => r.name).join(', ') || 'none'}): not an outcome this race allows (exactly one acts)`,
    );
  const reg = (await org.api(1, 'GET', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}`)).body
    .data;
  if (want && reg.status !== want.status)
    problems.push(`the booking ended ${reg.status}, not ${want.status}`);
  const refunds = await gatewayRefunds(bench, org, b);
  problems.push(...gatewayProblems(refunds, race.capturedPaise, want));
  problems.push(...(await ledgerProblems(bench, org, b, race.capturedPaise, refunds.total)));
  problems.push(...(await auditProblems(org, b, race.auditBefore, want)));
  const said = racers
    .map((r, i) => `${r.name} → ${answers[i]!.status}${answers[i]!.code ? ` ${answers[i]!.code}` : ''}`)
    .join('; ');
  return problems.map((p) => `[${race.label}] ${p}   (answers: ${said})`);
}
