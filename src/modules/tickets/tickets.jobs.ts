// The ticket email job: one per person on a booking, queued in the confirming
// transaction. Rendering (the QR PNG) happens here, off the request path. Test mode
// sends nothing and keeps the mail for GET /api/v1/sandbox/emails.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import type { Ids } from '../../shared/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { renderTicketMail } from './ticket-mail.js';

export interface TicketJobDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
  mailer: Mailer;
}

export async function sendTicketJob(deps: TicketJobDeps, payload: { attendeeId: string }): Promise<void> {
  const attendee = await deps.db.selectFrom('attendees').selectAll().where('id', '=', payload.attendeeId).executeTakeFirst();
  if (!attendee) return; // the event was deleted meanwhile
  const reg = await deps.db.selectFrom('registrations').selectAll().where('id', '=', attendee.registration_id).executeTakeFirstOrThrow();
  if (reg.status !== 'confirmed') return; // cancelled before the mail went out
  const event = await deps.db.selectFrom('events').selectAll().where('id', '=', reg.event_id).executeTakeFirstOrThrow();
  if (!event.ticket_emails_enabled) return;
  const organiser = await deps.db.selectFrom('users').select('name').where('id', '=', event.account_id).executeTakeFirst();
  // The primary's QR is the registration id, or its ticketCode after a transfer.
  const ticketId = attendee.idx === 0 ? (reg.ticket_code ?? reg.id) : attendee.id;
  const mail = await renderTicketMail({
    event: { title: event.title, startDate: event.start_date, endDate: event.end_date, location: event.location },
    holder: { name: attendee.name, email: attendee.email },
    ticketId,
    ticketType: reg.ticket_type,
    trackTitle: reg.sub_event_id === null ? null : (event.tracks[reg.sub_event_id]?.title ?? null),
    organiserName: organiser?.name,
    baseUrl: deps.config.baseUrl,
    isTeamMember: attendee.idx > 0,
  });
  if (reg.mode === 'test') {
    await deps.db
      .insertInto('sandbox_emails')
      .values({
        id: `${payload.attendeeId}:${ticketId}`,
        account_id: reg.account_id,
        recipients: JSON.stringify([mail.to]),
        subject: mail.subject,
        text: mail.text,
        attachments: JSON.stringify((mail.attachments ?? []).map((a) => a.filename)),
        created_at: deps.clock.now(),
      })
      // A retried job keeps one copy.
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return;
  }
  await deps.mailer.send(mail);
}
