// Organiser broadcast to the event's own attendees: a preview by default; a send only
// with an explicit dryRun: false and the count the preview showed. One mail per
// recipient, so nobody sees anybody else's address.
// A send is durable: it files the broadcast, one row per recipient and one mail job
// per recipient in one transaction and answers at once; the job workers deliver
// (retried for 72 hours through an SMTP outage). The broadcast id is derived from
// the event, the audience and the text (and an Idempotency-Key when given), so a
// repeated request is the same broadcast and nobody is mailed twice.
import * as audit from '../audit/audit.service.js';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { defineJob, enqueueRows, jobRow } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { appError, badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import * as repo from './broadcast.repo.js';
import type { EventRow } from '../events/events.service.js';
import { parseTrackIndex } from '../events/events.service.js';
import { MailRefusedError, type Mailer, type OutgoingMail } from '../mail/mailer.js';
import { escapeHtml } from '../../lib/html.js';
import * as registrations from '../registrations/registrations.service.js';
import type { Audience } from '../registrations/registrations.service.js';
import { keptCopy, recordSandboxMail } from '../mail/sandbox-mail.js';
import { mailHtml } from '../mail/mail-html.js';
import { mailSendersOf, senderFor } from '../accounts/mail-settings.js';

export type { Audience };

export interface BroadcastInput {
  subject: string;
  message: string;
  audience?: Audience | undefined;
  subEventId?: string | undefined;
  dryRun?: boolean | undefined;
  confirmedRecipientCount?: number | undefined;
  /** Makes a deliberate repeat of the same text a new broadcast; a retry sends the same key. */
  idempotencyKey?: string | undefined;
}

export interface BroadcastDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  maxRecipients: number;
  /** Asks the local workers to look for the queued mails at once. */
  jobs?: { kick(): void };
}

/** One broadcast mail to one recipient; at most one delivery attempt reaches SMTP's DATA per success. */
export const broadcastMailJob = defineJob<{ broadcastId: string; email: string }>('broadcast.mail');

/** A plain local@domain address; anything else is refused up front and counted as failed. */
const PLAIN_ADDRESS =
  /^[^\s@"(),:;<>\[\]\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

export function broadcastIdFor(
  eventId: string,
  input: {
    audience: string;
    trackIndex: number | undefined;
    subject: string;
    message: string;
    idempotencyKey?: string | undefined;
  },
): string {
  const h = createHash('sha256')
    .update(
      JSON.stringify([
        eventId,
        input.audience,
        input.trackIndex ?? null,
        input.subject,
        input.message,
        input.idempotencyKey ?? null,
      ]),
    )
    .digest('base64url');
  return `bc_${h.slice(0, 24)}`;
}

export const REFUSED_FIELDS = ['to', 'emails', 'bcc', 'cc', 'recipients'] as const;

export function recipients(
  db: Kysely<Database>,
  event: EventRow,
  audience: Audience,
  trackIndex: number | undefined,
) {
  // One mail per address, whoever holds it on several bookings.
  return registrations.audienceOf(db, event.id, audience, trackIndex);
}

export function composeMail(
  event: Pick<EventRow, 'title'>,
  to: string,
  subject: string,
  message: string,
  sender: { name: string | undefined; replyTo: string | undefined } = { name: undefined, replyTo: undefined },
): OutgoingMail {
  const html = mailHtml(
    subject,
    `<div style="white-space:normal">${escapeHtml(message).replace(/\r?\n/g, '<br>\n')}</div><hr><p style="color:#666;font-size:12px">You receive this because you registered for ${escapeHtml(event.title)}.</p>`,
  );
  return {
    to,
    subject,
    text: `${message}\n\n--\nYou receive this because you registered for ${event.title}.`,
    html,
    fromName: sender.name,
    replyTo: sender.replyTo,
  };
}

export async function broadcast(
  deps: BroadcastDeps,
  event: EventRow,
  input: BroadcastInput,
  actor?: audit.AuditActor,
) {
  const { subject, trackIndex, list } = await audienceOf(deps, event, input);
  if (input.dryRun !== false) {
    return {
      dryRun: true as const,
      recipientCount: list.length,
      sampleRecipients: list.slice(0, 5).map((r) => ({ name: r.name, email: r.email })),
    };
  }
  confirmCount(input, list.length);
  const audience = input.audience ?? 'confirmed';
  const broadcastId = broadcastIdFor(event.id, {
    audience,
    trackIndex,
    subject,
    message: input.message,
    idempotencyKey: input.idempotencyKey,
  });
  const now = deps.clock.now();
  const test = event.mode === 'test';
  await deps.db.transaction().execute(async (trx) => {
    const inserted = await repo.insertBroadcast(trx, {
      id: broadcastId,
      event_id: event.id,
      account_id: event.account_id,
      mode: event.mode,
      event_title: event.title,
      subject,
      message: input.message,
      audience: trackIndex === undefined ? audience : `${audience}:track ${trackIndex}`,
      recipient_count: list.length,
      created_at: now,
    });
    // A retry of the same broadcast (same id) records nothing again.
    if (inserted && actor) {
      await audit.recordChange(trx, deps, {
        accountId: event.account_id,
        mode: event.mode,
        actor,
        action: 'broadcast.send',
        target: { type: 'broadcast', id: broadcastId },
        after: {
          eventId: event.id,
          subject,
          audience: trackIndex === undefined ? audience : `${audience}:track ${trackIndex}`,
          recipients: list.length,
        },
      });
    }
    const added = await repo.addRecipients(
      trx,
      broadcastId,
      list.map((r) =>
        PLAIN_ADDRESS.test(r.email)
          ? { email: r.email, status: test ? ('delivered' as const) : ('queued' as const), error: null }
          : { email: r.email, status: 'failed' as const, error: 'refused: not a plain local@domain address' },
      ),
      now,
    );
    const fresh = added.filter((r) => r.status !== 'failed');
    if (test) {
      // Test mode sends nothing: the mails are kept for GET /api/v1/sandbox/emails, once each.
      await recordSandboxMail(
        trx,
        fresh.map((r) =>
          keptCopy(
            `${broadcastId}:${r.email}`,
            event.account_id,
            composeMail(event, r.email, subject, input.message),
            now,
          ),
        ),
      );
    } else {
      await enqueueRows(
        trx,
        deps,
        fresh.map((r) => jobRow(deps, broadcastMailJob, { broadcastId, email: r.email })),
      );
    }
  });
  deps.jobs?.kick();
  const counts = await repo.countByStatus(deps.db, broadcastId);
  return {
    dryRun: false as const,
    sent: counts.queued + counts.sending + counts.delivered,
    failed: counts.failed,
    recipientCount: list.length,
    broadcastId,
  };
}

/** The broadcast's subject, track and recipients, checked: a subject, a message, an existing track, not too many. */
async function audienceOf(deps: BroadcastDeps, event: EventRow, input: BroadcastInput) {
  const subject = input.subject.trim();
  if (subject === '') throw badRequest('invalid_subject', 'subject must not be empty');
  if (input.message.trim() === '') throw badRequest('invalid_message', 'message must not be empty');
  let trackIndex: number | undefined;
  if (input.subEventId !== undefined) {
    trackIndex = parseTrackIndex(input.subEventId, 'subEventId');
    if (!event.tracks[trackIndex]) throw notFound(`no track at index ${trackIndex}`, 'track_not_found');
  }
  const list = await recipients(deps.db, event, input.audience ?? 'confirmed', trackIndex);
  if (list.length > deps.maxRecipients) {
    throw appError(
      'too_many_recipients',
      `this audience has ${list.length} recipients; one broadcast may reach at most ${deps.maxRecipients}`,
      {
        recipientCount: list.length,
      },
    );
  }
  return { subject, trackIndex, list };
}

/** A send repeats the recipient count of the preview it follows: the audience must not have moved since. */
function confirmCount(input: BroadcastInput, recipientCount: number): void {
  if (input.confirmedRecipientCount === undefined) {
    throw badRequest(
      'confirmation_required',
      'a send needs confirmedRecipientCount: the recipientCount of a preview',
    );
  }
  if (input.confirmedRecipientCount !== recipientCount) {
    throw conflict(
      'audience_changed',
      `the audience moved: it has ${recipientCount} recipients now, not ${input.confirmedRecipientCount}; preview again`,
      { recipientCount },
    );
  }
}

export interface BroadcastMailDeps {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer;
}

/**
 * Delivers one broadcast mail. At most once: the recipient is marked `sending` before
 * the SMTP call; a mail the server did not accept goes back to `queued` (the job is
 * retried); one whose attempt stopped mid-send (a crash) is not sent again but marked
 * failed, because the server may have accepted it.
 */
export async function sendBroadcastMail(
  deps: BroadcastMailDeps,
  payload: { broadcastId: string; email: string },
): Promise<void> {
  const b = await repo.findBroadcast(deps.db, payload.broadcastId);
  const r = await repo.findRecipient(deps.db, payload.broadcastId, payload.email);
  if (!b || !r || r.status === 'delivered' || r.status === 'failed') return;
  if (r.status === 'sending') {
    await repo.moveRecipient(
      deps.db,
      b.id,
      r.email,
      'sending',
      'failed',
      'an earlier attempt stopped while sending; not sent again, so nobody gets it twice',
      deps.clock.now(),
    );
    return;
  }
  if (!(await repo.moveRecipient(deps.db, b.id, r.email, 'queued', 'sending', null, deps.clock.now())))
    return;
  try {
    const sender = senderFor((await mailSendersOf(deps.db, [b.account_id])).get(b.account_id), b.event_title);
    await deps.mailer.send(composeMail({ title: b.event_title }, r.email, b.subject, b.message, sender));
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    if (err instanceof MailRefusedError) {
      await repo.moveRecipient(deps.db, b.id, r.email, 'sending', 'failed', message, deps.clock.now());
      return;
    }
    // Not accepted by the server: back in the queue, and the job retries later.
    await repo.moveRecipient(deps.db, b.id, r.email, 'sending', 'queued', message, deps.clock.now());
    throw err;
  }
  await repo.moveRecipient(deps.db, b.id, r.email, 'sending', 'delivered', null, deps.clock.now());
}

export interface BroadcastProgress {
  broadcastId: string;
  eventId: string;
  subject: string;
  audience: string;
  recipientCount: number;
  /** Waiting for delivery (or being sent now). */
  queued: number;
  /** Accepted by the mail server (test mode: kept in the sandbox list). */
  delivered: number;
  /** Refused up front or by the mail server, or unknown after a crash mid-send (never re-sent). */
  failed: number;
  /** No recipient waits any more. */
  done: boolean;
  createdAt: string;
}

/** A broadcast's delivery progress; 404 `broadcast_not_found` for another event's or an unknown id. */
export async function broadcastProgress(
  db: Kysely<Database>,
  eventId: string,
  broadcastId: string,
): Promise<BroadcastProgress> {
  const b = await repo.findBroadcast(db, broadcastId);
  if (!b || b.event_id !== eventId) throw notFound('no such broadcast for this event', 'broadcast_not_found');
  const c = await repo.countByStatus(db, broadcastId);
  return {
    broadcastId: b.id,
    eventId: b.event_id,
    subject: b.subject,
    audience: b.audience,
    recipientCount: b.recipient_count,
    queued: c.queued + c.sending,
    delivered: c.delivered,
    failed: c.failed,
    done: c.queued + c.sending === 0,
    createdAt: b.created_at.toISOString(),
  };
}
