// The WhatsApp module's background work: sending tickets over the Cloud API, when configured.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { cloudApi } from './cloud-api.js';
import { sendWhatsAppTicket, whatsappTicketJob, type WhatsAppJobDeps } from './whatsapp.jobs.js';

export function whatsappWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
  bookings: { findBooking: WhatsAppJobDeps['findBooking'] };
}): ModuleWork {
  const { db, clock, ids, config } = deps;
  const sender = config.whatsapp.sender;
  const api = sender
    ? cloudApi({ apiUrl: config.whatsapp.apiUrl, token: sender.token, phoneNumberId: sender.phoneNumberId })
    : undefined;
  const jobDeps: WhatsAppJobDeps = {
    db,
    clock,
    ids,
    sender,
    api,
    timeZone: config.eventTimeZone,
    findBooking: deps.bookings.findBooking,
  };
  return { jobs: [onJob(whatsappTicketJob, (payload) => sendWhatsAppTicket(jobDeps, payload))] };
}
