import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOfKey } from '../audit/audit.service.js';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { Config } from '../../config.js';
import { FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { badRequest } from '../../lib/errors.js';
import * as events from '../events/events.service.js';
import { broadcast, broadcastProgress, REFUSED_FIELDS } from './broadcast.service.js';

const Progress = Type.Object(
  {
    broadcastId: Type.String(),
    eventId: Type.String(),
    subject: Type.String(),
    audience: Type.String({ description: 'The audience (and track) it went to.' }),
    recipientCount: Type.Integer(),
    queued: Type.Integer({ description: 'Mails waiting for delivery, or being sent now (retried through a mail server outage for 72 hours).' }),
    delivered: Type.Integer({ description: 'Mails the mail server accepted (test mode: kept for GET /api/v1/sandbox/emails).' }),
    failed: Type.Integer({
      description: 'Recipients refused up front (not a plain address) or by the mail server, and mails whose attempt stopped mid-send (never sent twice).',
    }),
    done: Type.Boolean({ description: 'No mail is waiting any more.' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'BroadcastProgress' },
);

const E = Type.Ref('Error');

export const broadcastRoutes =
  (deps: { db: Kysely<Database>; clock: Clock; ids: Ids; jobs: JobRunner; config: Config }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/events/:id/broadcast',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['broadcast'],
          summary: 'Email the event’s own attendees: preview by default, send on confirmation',
          description: [
            'Preview (the default, `dryRun` true): `{ dryRun: true, recipientCount, sampleRecipients }` with at most 5 `{ name, email }`. Only an explicit `dryRun: false` with `confirmedRecipientCount` equal to the current count sends; if the audience moved the send is refused with 409 `audience_changed`.',
            '`audience`: `confirmed` (default), `checked_in`, `not_checked_in`, `pending`, `all` (confirmed and pending). Recipients are people (team members included), one mail per address; `subEventId` narrows to one track. Above BROADCAST_MAX_RECIPIENTS the answer is 413.',
            'The fields `to`, `emails`, `bcc`, `cc` and `recipients` are refused with 400: recipients are always the event’s own attendees. The message keeps its line breaks (plain text, and an escaped HTML part). Test mode sends nothing and keeps the mails for GET /api/v1/sandbox/emails.',
            'A send is durable: it files one mail per recipient in one transaction and answers at once with `{ dryRun: false, sent, failed, recipientCount, broadcastId }`, where `sent` counts the mails accepted for delivery (queued) and `failed` the recipients refused up front. The workers deliver them, retrying through a mail server outage for at least 72 hours; follow the delivery at GET /api/v1/events/{id}/broadcasts/{broadcastId}.',
            'Each recipient is mailed at most once per broadcast, across retries of this request and restarts: the same event, audience, subject and message (and `Idempotency-Key` header, when sent) are the same broadcast, and a repeat queues only recipients not yet on it. To send the same text again on purpose, send a new `Idempotency-Key`.',
          ].join('\n\n'),
          params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
          body: Type.Object(
            {
              subject: Type.String({ minLength: 1, maxLength: 200 }),
              message: Type.String({ minLength: 1, maxLength: 20_000 }),
              audience: Type.Optional(
                Type.Union([Type.Literal('confirmed'), Type.Literal('checked_in'), Type.Literal('not_checked_in'), Type.Literal('pending'), Type.Literal('all')]),
              ),
              subEventId: Type.Optional(Type.String({ maxLength: 10 })),
              dryRun: Type.Optional(Type.Boolean()),
              confirmedRecipientCount: Type.Optional(Type.Integer({ minimum: 0 })),
              to: Type.Optional(Type.Unknown({ description: 'Refused.' })),
              emails: Type.Optional(Type.Unknown({ description: 'Refused.' })),
              bcc: Type.Optional(Type.Unknown({ description: 'Refused.' })),
              cc: Type.Optional(Type.Unknown({ description: 'Refused.' })),
              recipients: Type.Optional(Type.Unknown({ description: 'Refused.' })),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Union([
              Type.Object(
                {
                  dryRun: Type.Literal(true),
                  recipientCount: Type.Integer(),
                  sampleRecipients: Type.Array(Type.Object({ name: Type.String(), email: Type.String() }), { maxItems: 5 }),
                },
                { title: 'BroadcastPreview' },
              ),
              Type.Object(
                {
                  dryRun: Type.Literal(false),
                  sent: Type.Integer({ description: 'Mails accepted for delivery (queued, or in test mode kept).' }),
                  failed: Type.Integer({ description: 'Recipients refused up front.' }),
                  recipientCount: Type.Integer(),
                  broadcastId: Type.String({ description: 'Follow its delivery at GET /api/v1/events/{id}/broadcasts/{broadcastId}.' }),
                },
                { title: 'BroadcastSent' },
              ),
            ]),
            404: E,
            409: E,
          },
        },
      },
      async (req) => {
        const body = req.body as Record<string, unknown>;
        const refused = REFUSED_FIELDS.filter((f) => body[f] !== undefined);
        if (refused.length > 0) {
          throw badRequest('recipients_not_accepted', `${refused.join(', ')} not accepted: a broadcast goes to the event's own attendees only`);
        }
        const key = req.headers['idempotency-key'];
        if (key !== undefined && (typeof key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(key))) {
          throw badRequest('invalid_header', 'Idempotency-Key is 1 to 200 visible ASCII characters');
        }
        const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        return broadcast({ db: deps.db, clock: deps.clock, ids: deps.ids, jobs: deps.jobs, maxRecipients: deps.config.broadcastMaxRecipients }, event, { ...req.body, idempotencyKey: key }, actorOfKey(keyPrincipal(req)));
      },
    );

    app.get(
      '/api/v1/events/:id/broadcasts/:broadcastId',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['broadcast'],
          summary: 'Delivery progress of a broadcast',
          description: 'How many of its mails are queued, delivered and failed. 404 `broadcast_not_found` for a broadcast of another event.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }), broadcastId: Type.String({ maxLength: 100 }) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Progress }), 404: E },
        },
      },
      async (req) => {
        const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        return { success: true as const, data: await broadcastProgress(deps.db, event.id, req.params.broadcastId) };
      },
    );
  };
