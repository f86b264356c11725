// The job that sends a payment-due mail (payment-due-mail.ts): queued with the booking, or
// with its reminder's claim. Sends nothing once the booking is paid or has ended. Test mode
// sends nothing and keeps the mail for the sandbox's mail list.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, RegistrationsTable } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Selectable } from 'kysely';
import { mailSendersOf, senderFor } from '../accounts/mail-settings.js';
import { findEventsById } from '../events/events.service.js';
import type { Mailer } from '../mail/mailer.js';
import { recordSandboxMail } from '../mail/sandbox-mail.js';
import { renderPaymentDueMail } from './payment-due-mail.js';

export const paymentDueMailJob = defineJob<{ registrationId: string; kind: 'awaiting' | 'reminder' }>(
  'offline.payment_due_mail',
);

export interface PaymentDueMailDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  findBooking(id: string): Promise<Selectable<RegistrationsTable> | undefined>;
}

export async function sendPaymentDueMail(
  deps: PaymentDueMailDeps,
  payload: { registrationId: string; kind: 'awaiting' | 'reminder' },
  job: { id: string },
): Promise<void> {
  const reg = await deps.findBooking(payload.registrationId);
  if (!reg || reg.status !== 'pending' || reg.pending_reason !== 'offline_payment') return;
  const [event] = await findEventsById(deps.db, [reg.event_id]);
  if (!event || !event.ticket_emails_enabled) return;
  const settings = event.offline_payment;
  const sender = senderFor((await mailSendersOf(deps.db, [reg.account_id])).get(reg.account_id), event.title);
  const mail = renderPaymentDueMail({
    kind: payload.kind,
    to: { name: reg.name, email: reg.email },
    event: { title: event.title },
    method: reg.offline_method!,
    reference: reg.offline_reference!,
    amountPaise: Number(reg.amount_paise),
    payBy: reg.pay_by!,
    timeZone: deps.config.eventTimeZone,
    instructions: settings?.instructions ?? '',
    upi: settings?.upiId ? { id: settings.upiId, name: settings.upiName ?? event.title } : null,
    testMode: reg.mode === 'test',
    sender,
  });
  if (reg.mode === 'test') {
    await recordSandboxMail(deps.db, {
      id: job.id,
      accountId: reg.account_id,
      recipients: [mail.to],
      subject: mail.subject,
      text: mail.text,
      attachments: (mail.attachments ?? []).map((a) => a.filename),
      createdAt: deps.clock.now(),
    });
    return;
  }
  await deps.mailer.send(mail);
}
