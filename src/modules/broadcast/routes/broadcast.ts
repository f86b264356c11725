import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { badRequest } from '../../../lib/errors.js';
import { actorOfKey } from '../../audit/audit.service.js';
import * as events from '../../events/events.service.js';
import { broadcast as sendBroadcast, REFUSED_FIELDS } from '../broadcast.service.js';
import { type BroadcastDeps, E } from './broadcast-deps.js';

const examples: OperationExamples = {
  requests: {
    preview: {
      summary: 'Preview: who would receive it (nothing is sent)',
      value: {
        subject: 'Doors open at 9:30',
        message: 'See you at Hall B. Bring your ticket QR.',
        audience: 'confirmed',
      },
    },
    send: {
      summary: 'Send it, confirming the recipient count the preview gave',
      value: {
        subject: 'Doors open at 9:30',
        message: 'See you at Hall B. Bring your ticket QR.',
        audience: 'confirmed',
        dryRun: false,
        confirmedRecipientCount: 2,
      },
    },
  },
  responses: {
    '200 preview': {
      dryRun: true,
      recipientCount: 2,
      sampleRecipients: [{ name: 'Attendee', email: 'attendee@example.in' }],
    },
    '200 send': { dryRun: false, sent: 2, failed: 0, recipientCount: 2, broadcastId: EX.broadcastId },
  },
};

const Body = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 20_000 }),
    audience: Type.Optional(
      Type.Union([
        Type.Literal('confirmed'),
        Type.Literal('checked_in'),
        Type.Literal('not_checked_in'),
        Type.Literal('pending'),
        Type.Literal('all'),
      ]),
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
);

const Answer = Type.Union([
  Type.Object(
    {
      dryRun: Type.Literal(true),
      recipientCount: Type.Integer(),
      sampleRecipients: Type.Array(Type.Object({ name: Type.String(), email: Type.String() }), {
        maxItems: 5,
      }),
    },
    { title: 'BroadcastPreview' },
  ),
  Type.Object(
    {
      dryRun: Type.Literal(false),
      sent: Type.Integer({ description: 'Mails accepted for delivery (queued, or in test mode kept).' }),
      failed: Type.Integer({ description: 'Recipients refused up front.' }),
      recipientCount: Type.Integer(),
      broadcastId: Type.String({
        description: 'Follow its delivery at GET /api/v1/events/{id}/broadcasts/{broadcastId}.',
      }),
    },
    { title: 'BroadcastSent' },
  ),
]);

export const broadcast: Operation<BroadcastDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/broadcast',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'broadcast',
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
        body: Body,
        response: {
          200: answer(Answer, 'The preview (who would receive it), or the broadcast queued for sending.'),
          404: E,
          409: E,
        },
      },
    },
    async (req) => {
      const body = req.body as Record<string, unknown>;
      const refused = REFUSED_FIELDS.filter((f) => body[f] !== undefined);
      if (refused.length > 0) {
        throw badRequest(
          'recipients_not_accepted',
          `${refused.join(', ')} not accepted: a broadcast goes to the event's own attendees only`,
        );
      }
      const key = req.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(key))) {
        throw badRequest('invalid_header', 'Idempotency-Key is 1 to 200 visible ASCII characters');
      }
      const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
      return sendBroadcast(
        {
          db: deps.db,
          clock: deps.clock,
          ids: deps.ids,
          jobs: deps.jobs,
          maxRecipients: deps.config.broadcastMaxRecipients,
        },
        event,
        { ...req.body, idempotencyKey: key },
        actorOfKey(keyPrincipal(req)),
      );
    },
  );
