// Sending a waiting room's one-time code (docs/decisions/26-a-fair-waiting-room.md): a job queued
// when the code is made, retried only while the code can still be used. Mail goes as the other
// buyer mails do (test mode keeps it for the Test inbox instead); WhatsApp through the Cloud API
// with WHATSAPP_CODE_TEMPLATE (test mode keeps a copy in the Test inbox too, sending nothing).
// The payload holds the code sealed under SECRETS_KEY, never in clear.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { escapeHtml as h } from '../../lib/html.js';
import { open } from '../../lib/secret-box.js';
import { mailSendersOf, senderFor } from '../accounts/mail-settings.js';
import * as events from '../events/events.service.js';
import type { Mailer, OutgoingMail } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';
import { keptCopy, recordSandboxMail } from '../mail/sandbox-mail.js';
import type { CloudApi } from '../whatsapp/cloud-api.js';
import { CODE_TTL_MS } from './one-time-code.js';
import type { Channel } from './queue-store.js';

export interface CodePayload {
  verificationId: string;
  eventId: string;
  channel: Channel;
  /** The email, or the phone (E.164) for WhatsApp. */
  to: string;
  sealedCode: string;
  expiresAt: string;
}

export const codeJob = defineJob<CodePayload>('waiting_room.code', { retryForMs: CODE_TTL_MS });

export interface CodeDeliveryDeps {
  db: Kysely<Database>;
  clock: Clock;
  secretsKey: Buffer;
  mailer: Mailer;
  /** The Cloud API and the code's template, when codes may go by WhatsApp. */
  whatsapp: { api: CloudApi; template: string; language: string } | undefined;
}

export function renderCodeMail(
  to: string,
  code: string,
  eventTitle: string,
  sender?: OutgoingMail['fromName'],
) {
  const subject = `${code} is your code for ${eventTitle}`;
  const lines = [
    `Your code for the waiting room of ${eventTitle} is ${code}.`,
    'Enter it on the waiting page within 10 minutes to take your place in the queue.',
    'If you did not ask for it, ignore this mail: nobody gets a place without the code.',
  ];
  const html = mailHtml(
    subject,
    `<p>Your code for the waiting room of ${h(eventTitle)} is</p>
<p><strong>${h(code)}</strong></p>
<p>${h(lines[1]!)}</p>
<p>${h(lines[2]!)}</p>`,
  );
  return { to, subject, text: lines.join('\n\n'), html, fromName: sender } satisfies OutgoingMail;
}

export async function sendCode(deps: CodeDeliveryDeps, p: CodePayload): Promise<void> {
  // A code nobody can use any more is not worth sending.
  if (deps.clock.now().getTime() >= Date.parse(p.expiresAt)) return;
  const event = await events.findEvent(deps.db, p.eventId);
  if (!event) return;
  const code = open(deps.secretsKey, p.sealedCode);
  const sender = senderFor(
    (await mailSendersOf(deps.db, [event.account_id])).get(event.account_id),
    event.title,
  );
  const mail = renderCodeMail(p.to, code, event.title, sender.name);
  if (event.mode === 'test') {
    const kept = keptCopy(`${p.verificationId}:code`, event.account_id, mail, deps.clock.now());
    await recordSandboxMail(deps.db, kept);
    return;
  }
  if (p.channel === 'email') {
    await deps.mailer.send({ ...mail, replyTo: sender.replyTo });
    return;
  }
  if (!deps.whatsapp) return;
  await deps.whatsapp.api.sendTextTemplate({
    to: p.to,
    template: deps.whatsapp.template,
    language: deps.whatsapp.language,
    body: [{ name: 'code', text: code }],
    opaque: p.verificationId,
  });
}
