// The WhatsApp ticket job: queued in the confirming transaction for a live booking whose
// buyer gave a phone and opted in, when WhatsApp is configured. It uploads the ticket's QR
// (the bare ticket id, as in the mail) as the template's header image and sends the
// template with the holder's name, the event and the booked session's date (its track's, else
// the event's) in words as named body parameters. It
// retries as the ticket mail does (the queue's default: back-off from 1 s to 1 h, for 72
// hours, then a dead job for staff); each refusal is recorded on the ticket's row
// (`unsent` and Meta's code). A message the Cloud API accepted is never sent again.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Mode, RegistrationStatus } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import * as events from '../events/events.service.js';
import { qrPng } from '../../lib/qr-png.js';
import { formatSpan } from '../../lib/event-time.js';
import { CloudApiError, type CloudApi } from './cloud-api.js';
import * as repo from './whatsapp.repo.js';

export interface WhatsAppTicketPayload {
  registrationId: string;
  /** The ticket id when it was queued: a transfer meanwhile (a new holder) stops the send. */
  ticketId: string;
}

export const whatsappTicketJob = defineJob<WhatsAppTicketPayload>('ticket.whatsapp');

/** The booking's fields the message needs (the registrations module's row). */
export interface WhatsAppBooking {
  id: string;
  event_id: string;
  mode: Mode;
  status: RegistrationStatus;
  name: string;
  phone: string | null;
  whatsapp_opt_in: boolean;
  ticket_code: string | null;
  sub_event_id: number | null;
}

export interface WhatsAppJobDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  sender: Config['whatsapp']['sender'];
  /** Undefined when WhatsApp is not configured: the job then does nothing. */
  api: CloudApi | undefined;
  /** The event's time zone (EVENT_TIME_ZONE), in which the date is said. */
  timeZone: string;
  findBooking(registrationId: string): Promise<WhatsAppBooking | undefined>;
}

export async function sendWhatsAppTicket(
  deps: WhatsAppJobDeps,
  payload: WhatsAppTicketPayload,
): Promise<void> {
  const { api, sender } = deps;
  if (!api || !sender) return;
  const reg = await deps.findBooking(payload.registrationId);
  // Cancelled, transferred or consent withdrawn meanwhile: nothing to send.
  if (
    !reg ||
    reg.status !== 'confirmed' ||
    reg.mode !== 'live' ||
    !reg.phone ||
    !reg.whatsapp_opt_in ||
    (reg.ticket_code ?? reg.id) !== payload.ticketId
  )
    return;
  const event = await events.findEvent(deps.db, reg.event_id);
  if (!event) return;
  const row = await repo.rowFor(deps.db, {
    id: deps.ids.make('wam'),
    registrationId: reg.id,
    phone: reg.phone,
    now: deps.clock.now(),
  });
  if (row.wamid !== null) return; // accepted by an earlier try
  let wamid: string;
  try {
    // The QR of the bare ticket id, as mailed; an uploaded image, so no ticket URL is handed to Meta to fetch.
    const mediaId = await api.uploadPng(
      qrPng(payload.ticketId, { errorCorrectionLevel: 'M', margin: 2, width: 480 }),
    );
    ({ wamid } = await api.sendTemplate({
      to: row.phone,
      template: sender.template,
      language: sender.language,
      mediaId,
      body: [
        { name: 'name', text: reg.name },
        { name: 'event', text: event.title },
        {
          name: 'date',
          text:
            formatSpan(events.sessionOf(event, reg.sub_event_id, deps.timeZone).span, deps.timeZone) ??
            'to be announced',
        },
      ],
      opaque: row.id,
    }));
  } catch (err) {
    await repo.markUnsent(
      deps.db,
      row.id,
      deps.clock.now(),
      err instanceof CloudApiError ? (err.code ?? null) : null,
    );
    throw err;
  }
  await repo.markAccepted(deps.db, row.id, wamid, deps.clock.now());
}
