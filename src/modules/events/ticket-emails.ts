// Staff switch an event's ticket mail on or off (the admin routes call this; events own the row).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { notFound } from '../../shared/errors.js';
import * as repo from './events.repo.js';

/** Sets whether the service mails tickets for the event; 404 for an unknown event. */
export async function setTicketEmails(
  db: Kysely<Database> | Transaction<Database>,
  eventId: string,
  enabled: boolean,
  at: Date,
): Promise<{ eventId: string; ticketEmailsEnabled: boolean }> {
  const r = await repo.setTicketEmails(db, eventId, enabled, at);
  if (!r) throw notFound('no such event', 'event_not_found');
  return { eventId: r.id, ticketEmailsEnabled: r.ticket_emails_enabled };
}
