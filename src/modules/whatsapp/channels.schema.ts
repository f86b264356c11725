// `channels` of a registration's API answer: where its ticket went besides mail.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { STATUS_ORDER } from './whatsapp.repo.js';

export const Channels = Type.Array(
  Type.Object({
    channel: Type.Literal('whatsapp'),
    status: Type.Union(
      STATUS_ORDER.map((s) => Type.Literal(s)),
      {
        description:
          '`unsent`: the Cloud API has not accepted it yet (not reached, or refused: `errorCode` is Meta’s code); the job retries with the ticket mail’s back-off for 72 hours, then is parked as a dead job for staff. `accepted`: taken by the Cloud API, not yet delivered. Then `sent`, `delivered`, `read` or `failed` as its webhooks report them, the furthest along kept.',
      },
    ),
    at: Type.String({
      format: 'date-time',
      description: 'When it reached this status (the webhook’s timestamp).',
    }),
    errorCode: Nullable(
      Type.Integer({
        description: 'Meta’s error code of a refusal or a failure (131026: not on WhatsApp, …).',
      }),
    ),
  }),
  {
    description:
      'Where the ticket went besides mail: a WhatsApp message for a live booking that opted in, once its job has run. Empty otherwise.',
  },
);
