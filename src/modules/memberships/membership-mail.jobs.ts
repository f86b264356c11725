// The member's mails as durable jobs, queued in the transaction that starts a membership
// or records a charge (so a mail exists exactly when the change committed), sent with the
// same retries as ticket mails. Test mode sends nothing and keeps the mail for
// GET /api/v1/sandbox/emails; a retried job keeps one copy (the job's id names it).
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import type { Ids } from '../../lib/ids.js';
import { findUsersById } from '../accounts/accounts.service.js';
import type { Mailer, OutgoingMail } from '../mail/mailer.js';
import { recordSandboxMail } from '../mail/sandbox-mail.js';
import { renderMembershipConfirmation, renderPaymentReceived, type MemberFacts } from './membership-mail.js';
import * as repo from './memberships.repo.js';

export interface ConfirmationMailPayload {
  membershipId: string;
  /** When the membership started (the account's clock: the sandbox's in test mode). */
  startedAt: string;
}

export interface PaymentMailPayload {
  membershipId: string;
  paymentId: string;
  amountPaise: number;
  paidAt: string;
  /** The end of the period this charge paid for. */
  validUntil: string | null;
}

export const membershipConfirmationJob = defineJob<ConfirmationMailPayload>('membership.confirmation_email');
export const membershipPaymentJob = defineJob<PaymentMailPayload>('membership.payment_email');

/** Queues the confirmation mail in the caller's transaction. */
export function queueConfirmationMail(
  trx: Db,
  deps: { clock: Clock; ids: Ids },
  membershipId: string,
  startedAt: Date,
): Promise<string> {
  return enqueue(trx as Kysely<Database>, deps, membershipConfirmationJob, {
    membershipId,
    startedAt: startedAt.toISOString(),
  });
}

/** Queues a payment-received mail in the transaction that records the charge. */
export function queuePaymentMail(
  trx: Db,
  deps: { clock: Clock; ids: Ids },
  p: { membershipId: string; paymentId: string; amountPaise: number; paidAt: Date; validUntil: Date | null },
): Promise<string> {
  return enqueue(trx as Kysely<Database>, deps, membershipPaymentJob, {
    membershipId: p.membershipId,
    paymentId: p.paymentId,
    amountPaise: p.amountPaise,
    paidAt: p.paidAt.toISOString(),
    validUntil: p.validUntil?.toISOString() ?? null,
  });
}

export interface MemberMailDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
}

type Render = (facts: {
  plan: repo.PlanRow;
  member: MemberFacts;
  organiserName: string | undefined;
  timeZone: string;
}) => OutgoingMail;

/** Renders a member's mail from the rows as they are now, and sends or (test mode) keeps it. */
async function deliver(
  deps: MemberMailDeps,
  membershipId: string,
  jobId: string,
  render: Render,
): Promise<void> {
  const m = await repo.findMembership(deps.db, membershipId);
  if (!m) return; // removed meanwhile
  const plan = (await repo.findPlan(deps.db, m.plan_id))!;
  const organiserName = (await findUsersById(deps.db, [m.account_id]))[0]?.name;
  const member: MemberFacts = {
    id: m.id,
    name: m.name,
    email: m.email,
    validUntil: m.valid_until,
    source: m.source,
  };
  const mail = render({ plan, member, organiserName, timeZone: deps.config.eventTimeZone });
  if (m.mode === 'test') {
    await recordSandboxMail(deps.db, {
      id: jobId,
      accountId: m.account_id,
      recipients: [mail.to],
      subject: mail.subject,
      text: mail.text,
      attachments: [],
      createdAt: deps.clock.now(),
    });
    return;
  }
  await deps.mailer.send(mail);
}

export function sendConfirmationMail(
  deps: MemberMailDeps,
  p: ConfirmationMailPayload,
  job: { id: string },
): Promise<void> {
  return deliver(deps, p.membershipId, job.id, (f) =>
    renderMembershipConfirmation({ ...f, startedAt: new Date(p.startedAt) }),
  );
}

export function sendPaymentMail(
  deps: MemberMailDeps,
  p: PaymentMailPayload,
  job: { id: string },
): Promise<void> {
  return deliver(deps, p.membershipId, job.id, (f) =>
    renderPaymentReceived({
      ...f,
      payment: {
        id: p.paymentId,
        amountPaise: p.amountPaise,
        paidAt: new Date(p.paidAt),
        validUntil: p.validUntil === null ? null : new Date(p.validUntil),
      },
    }),
  );
}
