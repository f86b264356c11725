import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { FULL_ONLY, keyPrincipal } from '../../shared/auth.js';
import { badRequest } from '../../shared/errors.js';
import * as events from '../events/events.service.js';
import { broadcast, REFUSED_FIELDS } from './broadcast.service.js';

const E = Type.Ref('Error');

export const broadcastRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'mailer' | 'config'>): FastifyPluginAsyncTypebox =>
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
                { dryRun: Type.Literal(false), sent: Type.Integer(), failed: Type.Integer(), recipientCount: Type.Integer() },
                { title: 'BroadcastSent', description: 'sent and failed count what the mail transport accepted.' },
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
        const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
        return broadcast({ db: deps.db, clock: deps.clock, ids: deps.ids, mailer: deps.mailer, maxRecipients: deps.config.broadcastMaxRecipients }, event, req.body);
      },
    );
  };
