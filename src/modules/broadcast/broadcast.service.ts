// Organiser broadcast to the event's own attendees: a preview by default; a send only
// with an explicit dryRun: false and the count the preview showed. One mail per
// recipient, so nobody sees anybody else's address.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { appError, badRequest, conflict, notFound } from '../../shared/errors.js';
import type { Ids } from '../../shared/ids.js';
import type { EventRow } from '../events/events.service.js';
import { parseTrackIndex } from '../events/events.service.js';
import type { Mailer, OutgoingMail } from '../mail/mailer.js';
import { escapeHtml } from '../../shared/html.js';
import * as registrations from '../registrations/registrations.service.js';
import type { Audience } from '../registrations/registrations.service.js';
import { recordSandboxMail } from '../sandbox/sandbox-mail.repo.js';

export type { Audience };

export interface BroadcastInput {
  subject: string;
  message: string;
  audience?: Audience | undefined;
  subEventId?: string | undefined;
  dryRun?: boolean | undefined;
  confirmedRecipientCount?: number | undefined;
}

export interface BroadcastDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  mailer: Mailer;
  maxRecipients: number;
}

export const REFUSED_FIELDS = ['to', 'emails', 'bcc', 'cc', 'recipients'] as const;

export function recipients(db: Kysely<Database>, event: EventRow, audience: Audience, trackIndex: number | undefined) {
  // One mail per address, whoever holds it on several bookings.
  return registrations.audienceOf(db, event.id, audience, trackIndex);
}

export function composeMail(event: EventRow, to: string, subject: string, message: string): OutgoingMail {
  const html = `<!doctype html><html><body><div style="font-family:sans-serif;white-space:normal">${escapeHtml(message).replace(/\r?\n/g, '<br>\n')}</div><hr><p style="color:#666;font-size:12px">You receive this because you registered for ${escapeHtml(event.title)}.</p></body></html>`;
  return { to, subject, text: `${message}\n\n--\nYou receive this because you registered for ${event.title}.`, html };
}

export async function broadcast(deps: BroadcastDeps, event: EventRow, input: BroadcastInput) {
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
    throw appError('too_many_recipients', `this audience has ${list.length} recipients; one broadcast may reach at most ${deps.maxRecipients}`, {
      recipientCount: list.length,
    });
  }
  if (input.dryRun !== false) {
    return { dryRun: true as const, recipientCount: list.length, sampleRecipients: list.slice(0, 5).map((r) => ({ name: r.name, email: r.email })) };
  }
  if (input.confirmedRecipientCount === undefined) {
    throw badRequest('confirmation_required', 'a send needs confirmedRecipientCount: the recipientCount of a preview');
  }
  if (input.confirmedRecipientCount !== list.length) {
    throw conflict('audience_changed', `the audience moved: it has ${list.length} recipients now, not ${input.confirmedRecipientCount}; preview again`, {
      recipientCount: list.length,
    });
  }
  let sent = 0;
  let failed = 0;
  if (event.mode === 'test') {
    // Test mode sends nothing: the mails are kept for GET /api/v1/sandbox/emails.
    const now = deps.clock.now();
    await recordSandboxMail(
      deps.db,
      list.map((r) => ({
        id: deps.ids.make('mail', 12),
        accountId: event.account_id,
        recipients: [r.email],
        subject,
        text: composeMail(event, r.email, subject, input.message).text,
        attachments: [],
        createdAt: now,
      })),
    );
    sent = list.length;
  } else {
    // A few at a time: the transport decides what it accepts.
    const queue = [...list];
    const worker = async () => {
      for (let r = queue.shift(); r !== undefined; r = queue.shift()) {
        try {
          await deps.mailer.send(composeMail(event, r.email, subject, input.message));
          sent++;
        } catch {
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(5, list.length) }, worker));
  }
  return { dryRun: false as const, sent, failed, recipientCount: list.length };
}
