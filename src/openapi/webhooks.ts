// The document's `webhooks` section: every payload the service POSTs to an organiser's
// webhook URL (src/modules/webhooks), with its signature headers, as OpenAPI 3.1 describes
// outgoing calls. The payload shapes are those the emitters build (registrations/confirmation.ts,
// memberships/subscription-events.service.ts, waitlist/offers.ts); test/openapi/rules.test.ts
// validates real deliveries against them.
type Json = Record<string, unknown>;

const str = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
const nullableStr = (description: string): Json => ({
  anyOf: [{ type: 'string' }, { type: 'null' }],
  description,
});

const envelope = (type: string, data: Json, description: string): Json => ({
  type: 'object',
  description,
  required: ['id', 'type', 'createdAt', 'mode', 'data'],
  additionalProperties: false,
  properties: {
    id: str(
      'The event id (`evt_…`), the same on a retried delivery: deduplicate on it. Also in `X-Service-Event-Id`.',
    ),
    type: { type: 'string', enum: [type] },
    createdAt: str('When the change happened (ISO 8601).', { format: 'date-time' }),
    mode: { type: 'string', enum: ['test', 'live'] },
    data,
  },
});

const obj = (properties: Json): Json => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});

export const WEBHOOK_PAYLOADS: Readonly<Record<string, Json>> = {
  RegistrationConfirmedWebhook: envelope(
    'registration.confirmed',
    obj({
      registrationId: str('The booking (its primary attendee).'),
      eventId: str('The event.'),
      eventTitle: str('The event’s title.'),
      eventSlug: str('The event’s slug.'),
      name: str('The primary attendee’s name.'),
      email: str('The primary attendee’s email.'),
      ticketType: str('The tier booked (`General` for the base price).'),
      subEventId: nullableStr('The track index, as text, or null.'),
      quantity: { type: 'integer', minimum: 1, description: 'People on the booking.' },
      amount: { type: 'number', minimum: 0, description: 'Paid, in rupees (0 for a free booking).' },
      currency: { type: 'string', enum: ['INR'] },
      status: { type: 'string', enum: ['confirmed'] },
      confirmedAt: str('When it was confirmed (ISO 8601).', { format: 'date-time' }),
    }),
    'A booking was confirmed (free, paid, approved or from a waitlist offer). One delivery per booking.',
  ),
  SubscriptionAuthenticatedWebhook: envelope(
    'subscription.authenticated',
    obj({
      membershipId: str('The membership.'),
      planId: str('Its plan.'),
      planName: str('The plan’s name.'),
      subscriptionId: str('The gateway subscription (mandate).'),
      name: str('The member’s name.'),
      email: str('The member’s email.'),
      authorisedAt: str('When the member approved the mandate (ISO 8601).', { format: 'date-time' }),
    }),
    'A member approved the mandate of a recurring plan.',
  ),
  WaitlistOfferedWebhook: envelope(
    'waitlist.offered',
    obj({
      entryId: str('The waitlist entry.'),
      eventId: str('The event.'),
      eventTitle: str('The event’s title.'),
      name: str('Who was offered the seat.'),
      email: str('Their email (the offer mail went there).'),
      ticketType: str('The tier waited for (`General` for the base price).'),
      subEventId: nullableStr('The track index waited for, as text, or null.'),
      offeredAt: str('When the seat was offered (ISO 8601).', { format: 'date-time' }),
      expiresAt: str('When the offer lapses and passes to the next in line (ISO 8601).', {
        format: 'date-time',
      }),
    }),
    'A seat came free and was offered (and held) for the first in line.',
  ),
};

const SIGNATURE_HEADERS: Json[] = [
  {
    name: 'X-Service-Signature',
    in: 'header',
    required: true,
    description:
      '`sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` with the webhook’s secret (sdk/webhooks.ts verifies it).',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  },
  {
    name: 'X-Service-Timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when the delivery was signed; refuse one too far from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'X-Service-Event-Id',
    in: 'header',
    required: true,
    description: 'The payload’s `id`.',
    schema: { type: 'string' },
  },
];

/** Adds `webhooks` (one entry per event type) and the payload schemas to the document. */
export function addWebhooks(doc: Json): void {
  const components = (doc.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Json;
  const webhooks: Json = {};
  for (const [name, schema] of Object.entries(WEBHOOK_PAYLOADS)) {
    schemas[name] = schema;
    const type = ((schema.properties as Json).type as { enum: string[] }).enum[0]!;
    webhooks[type] = {
      post: {
        operationId: `on${name.replace(/Webhook$/, '')}`,
        summary: `The \`${type}\` delivery`,
        description: `${String(schema.description)} Sent to the account’s webhook URL (PUT /api/v1/webhooks) when it subscribes to \`${type}\`. Best effort: one attempt with a 5-second timeout, no automatic retry (staff may retry a failed one, with the same \`id\`, so deduplicate on it); every attempt is listed by GET /api/v1/webhooks/deliveries.`,
        tags: ['webhooks'],
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          '200': {
            description:
              'Any 2xx acknowledges the delivery; the answer’s body is never read. Anything else, or no answer within 5 seconds, is recorded as a failed attempt.',
          },
        },
      },
    };
  }
  doc.webhooks = webhooks;
}
