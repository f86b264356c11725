// Getting started (docs/decisions/17-the-organisers-office.md): an organiser asks for publishing access with a
// short message; platform staff see the request with the account's facts and grant or
// decline it with a reason; either way the organiser is mailed (a durable job). Test events
// need no grant at all, so nobody waits for this to try the service.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { escapeHtml } from '../../lib/html.js';
import type { Ids } from '../../lib/ids.js';
import { pageOf } from '../../http/paging.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Mailer } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';
import * as audit from '../audit/audit.service.js';
import * as repo from './accounts.repo.js';
import { getUser, isEmailVerified } from './accounts.service.js';
import * as requests from './publishing.repo.js';

export type PublishingRequestRow = requests.PublishingRequestRow;
export type RequestStatus = 'pending' | 'granted' | 'declined';

export const MESSAGE_MAX = 1000;
export const REASON_MAX = 1000;

/** Mails the organiser the staff's decision on a request. */
export const publishingDecisionJob = defineJob<{ requestId: string }>('account.publishing_decision');

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  jobs?: { kick(): void };
}

function text(value: string, field: string, max: number): string {
  const v = value.trim();
  if (v === '') throw badRequest('invalid_field', `${field} must not be empty`);
  if (v.length > max) throw badRequest('invalid_field', `${field} must be at most ${max} characters`);
  return v;
}

export function presentRequest(r: PublishingRequestRow) {
  return {
    id: r.id,
    status: r.status,
    message: r.message,
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
    decidedAt: r.decided_at ? r.decided_at.toISOString() : null,
  };
}

/** The organiser asks. 409 while a request waits, or when the account may publish already. */
export async function requestPublishing(
  deps: Deps,
  userId: string,
  message: string,
): Promise<PublishingRequestRow> {
  const body = text(message, 'message', MESSAGE_MAX);
  const user = await getUser(deps.db, userId);
  if (user.can_publish) throw conflict('already_can_publish', 'this account may already publish live events');
  const id = deps.ids.make('pubreq', 12);
  try {
    await requests.insertRequest(deps.db, { id, userId, message: body, createdAt: deps.clock.now() });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(
        'publishing_request_pending',
        'a request for publishing access is already waiting for review; staff will mail you their answer',
      );
    throw err;
  }
  return (await requests.findRequest(deps.db, id))!;
}

/** The account's latest requests, newest first. */
export const requestsOf = (db: Kysely<Database>, userId: string) => requests.requestsOf(db, userId, 20);

/** Staff: requests in one status with the account's facts, oldest first. */
export async function listRequests(
  db: Kysely<Database>,
  q: { status: RequestStatus; limit: number; startingAfter?: string | undefined },
) {
  let after: { createdAt: Date; id: string } | undefined;
  if (q.startingAfter !== undefined) {
    const row = await requests.findRequest(db, q.startingAfter);
    if (!row || row.status !== q.status)
      throw badRequest('invalid_cursor', 'startingAfter is not a cursor this list gave');
    after = { createdAt: row.created_at, id: row.id };
  }
  const rows = await requests.requestsByStatus(db, q.status, q.limit, after);
  const page = pageOf(rows, q.limit, (r) => r.id);
  const users = new Map(
    (
      await repo.findUsersById(
        db,
        page.items.map((r) => r.user_id),
      )
    ).map((u) => [u.id, u]),
  );
  const items = page.items.map((r) => {
    const u = users.get(r.user_id)!;
    return {
      ...presentRequest(r),
      account: {
        userId: u.id,
        email: u.email,
        name: u.name,
        phone: u.phone,
        emailVerified: isEmailVerified(u),
        canPublish: u.can_publish,
        createdAt: u.created_at.toISOString(),
      },
    };
  });
  return {
    items,
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
    count: await requests.countByStatus(db, q.status),
  };
}

/**
 * Staff decide: a grant sets the account's publishing access in the same transaction; a
 * decline needs a reason, which the organiser reads. The mail is queued with the decision.
 * 404 for no such request, 409 for one decided already.
 */
export async function decideRequest(
  deps: Deps,
  staff: { userId: string; email: string; isStaff: boolean },
  requestId: string,
  decision: { grant: true } | { grant: false; reason: string },
): Promise<PublishingRequestRow> {
  const staffUserId = staff.userId;
  const reason = decision.grant ? null : text(decision.reason, 'reason', REASON_MAX);
  const decided = await deps.db.transaction().execute(async (trx) => {
    const row = await requests.decideRequest(trx, requestId, {
      status: decision.grant ? 'granted' : 'declined',
      reason,
      decidedBy: staffUserId,
      at: deps.clock.now(),
    });
    if (!row) return undefined;
    if (decision.grant) await repo.setCanPublish(trx, row.user_id, true);
    const action = decision.grant ? 'account.publishing_request_grant' : 'account.publishing_request_decline';
    await audit.recordChange(trx, deps, {
      accountId: row.user_id,
      mode: 'live',
      actor: audit.actorOfSession(staff, true),
      action,
      target: { type: 'account', id: row.user_id },
      before: { publishingRequest: 'pending' },
      after: decision.grant
        ? { publishingRequest: 'granted', canPublish: true }
        : { publishingRequest: 'declined', reason },
    });
    await enqueue(trx, deps, publishingDecisionJob, { requestId: row.id });
    return row;
  });
  if (!decided) {
    const row = await requests.findRequest(deps.db, requestId);
    if (!row) throw notFound('no such request for publishing access', 'publishing_request_not_found');
    throw conflict('publishing_request_decided', `this request was already ${row.status}`);
  }
  deps.jobs?.kick();
  return decided;
}

type MailDeps = { db: Kysely<Database>; baseUrl: string; mailer: Mailer };

export async function sendPublishingDecisionJob(
  deps: MailDeps,
  payload: { requestId: string },
): Promise<void> {
  const request = await requests.findRequest(deps.db, payload.requestId);
  if (!request || request.status === 'pending') return;
  const user = await repo.findUserById(deps.db, request.user_id);
  if (!user) return;
  await deps.mailer.send(
    renderDecisionMail({
      baseUrl: deps.baseUrl,
      name: user.name,
      email: user.email,
      status: request.status,
      reason: request.reason,
    }),
  );
}

export function renderDecisionMail(m: {
  baseUrl: string;
  name: string;
  email: string;
  status: 'granted' | 'declined';
  reason: string | null;
}) {
  const events = `${m.baseUrl}/dashboard/events`;
  const lines =
    m.status === 'granted'
      ? ['Your account may now publish live events. Publish an event from its page on the dashboard:', events]
      : [
          'Your request to publish live events was declined for now. The reason given:',
          m.reason ?? '',
          'You can answer it and ask again from the dashboard. Test events keep working meanwhile:',
          events,
        ];
  const text = [`Hello ${m.name},`, '', ...lines].join('\n');
  const subject =
    m.status === 'granted' ? 'You can now publish live events' : 'Your request to publish live events';
  const html = mailHtml(
    subject,
    `<p>Hello ${escapeHtml(m.name)},</p>` +
      lines
        .map((l) =>
          l === events
            ? `<p><a href="${escapeHtml(events)}">${escapeHtml(events)}</a></p>`
            : `<p>${escapeHtml(l)}</p>`,
        )
        .join(''),
  );
  return { to: m.email, subject, text, html };
}

/** Staff grant or withdraw an account's right to publish live events directly (not through a request); recorded in the audit log. */
export async function setOrganiserAccess(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids },
  staff: { userId: string; email: string; isStaff: boolean },
  userId: string,
  canPublish: boolean,
) {
  const before = await repo.findUserById(deps.db, userId);
  if (!before) throw notFound('no such account', 'account_not_found');
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.setCanPublish(trx, userId, canPublish)))
      throw notFound('no such account', 'account_not_found');
    const action = canPublish ? 'account.organiser_access_grant' : 'account.organiser_access_remove';
    await audit.recordChange(trx, deps, {
      accountId: userId,
      mode: 'live',
      actor: audit.actorOfSession(staff, true),
      action,
      target: { type: 'account', id: userId },
      before: { canPublish: before.can_publish },
      after: { canPublish },
    });
  });
  return getUser(deps.db, userId);
}
