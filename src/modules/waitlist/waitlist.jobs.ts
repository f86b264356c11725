// The waitlist's durable jobs: the offer mail (one per offer, queued with it) and the
// lapse of an event's offers at their expiry. Test mode keeps the mail for
// GET /api/v1/sandbox/emails instead of sending it.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { defineJob } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { formatInstant } from '../../lib/event-time.js';
import { escapeHtml as h } from '../../lib/html.js';
import * as events from '../events/events.service.js';
import { mailSendersOf, senderFor } from '../accounts/mail-settings.js';
import type { Mailer, OutgoingMail } from '../mail/mailer.js';
import { mailHtml } from '../mail/mail-html.js';
import { keptCopy, recordSandboxMail } from '../mail/sandbox-mail.js';
import { offerToken } from './offer-token.js';
import * as repo from './waitlist.repo.js';

export const offerMailJob = defineJob<{ entryId: string }>('waitlist.offer_mail');
/** Lapses an event's offers whose time is up (queued to run at an offer's expiry). */
export const lapseJob = defineJob<{ eventId: string }>('waitlist.lapse');

export interface OfferMailDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
}

/** When an offer ends, for people, in the event's time zone: "Sun 20 Dec 2026, 4:30 pm IST". */
export function offerUntil(at: Date, timeZone: string): string {
  return formatInstant(at, timeZone);
}

export function offerUrl(
  config: Pick<Config, 'baseUrl' | 'secretsKey'>,
  slug: string,
  entry: { id: string; offered_at: Date },
): string {
  return `${config.baseUrl.replace(/\/+$/, '')}/e/${encodeURIComponent(slug)}?offer=${offerToken(config.secretsKey, entry.id, entry.offered_at)}`;
}

export function renderOfferMail(input: {
  name: string;
  email: string;
  eventTitle: string;
  choice: string | null;
  until: string;
  url: string;
  sender?: { name: string | undefined; replyTo: string | undefined };
}): OutgoingMail {
  const what = input.choice ? `${input.eventTitle} (${input.choice})` : input.eventTitle;
  const text = [
    `Hello ${input.name},`,
    '',
    `A seat at ${what} has come free and is held for you until ${input.until}.`,
    '',
    `Book it here: ${input.url}`,
    '',
    'After that time the seat passes to the next person waiting.',
    ...(input.sender?.name ? ['', input.sender.name] : []),
  ].join('\n');
  const subject = `A seat is held for you: ${input.eventTitle}`;
  const html = mailHtml(
    subject,
    `<p>Hello ${h(input.name)},</p>
<p>A seat at ${h(what)} has come free and is held for you until <strong>${h(input.until)}</strong>.</p>
<p><a href="${h(input.url)}">Book your seat</a></p>
<p>After that time the seat passes to the next person waiting.</p>${input.sender?.name ? `\n<p>${h(input.sender.name)}</p>` : ''}`,
  );
  return {
    to: input.email,
    subject,
    text,
    html,
    fromName: input.sender?.name,
    replyTo: input.sender?.replyTo,
  };
}

export async function sendOfferMail(deps: OfferMailDeps, payload: { entryId: string }): Promise<void> {
  const entry = await repo.findEntry(deps.db, payload.entryId);
  // Booked, lapsed or removed before the mail went out: the link would be dead.
  if (!entry || entry.status !== 'offered' || entry.offered_at === null || entry.expires_at === null) return;
  const event = await events.findEvent(deps.db, entry.event_id);
  if (!event) return;
  const track = entry.sub_event_id === null ? null : (event.tracks[entry.sub_event_id]?.title ?? null);
  const choice =
    [track, entry.ticket_type === 'General' ? null : entry.ticket_type].filter((x) => x).join(' · ') || null;
  const mail = renderOfferMail({
    name: entry.name,
    email: entry.email,
    eventTitle: event.title,
    choice,
    until: offerUntil(entry.expires_at, deps.config.eventTimeZone),
    url: offerUrl(deps.config, event.slug, { id: entry.id, offered_at: entry.offered_at }),
    sender: senderFor((await mailSendersOf(deps.db, [event.account_id])).get(event.account_id), event.title),
  });
  if (entry.mode === 'test') {
    await recordSandboxMail(deps.db, keptCopy(`${entry.id}:offer`, entry.account_id, mail, deps.clock.now()));
    return;
  }
  await deps.mailer.send(mail);
}
