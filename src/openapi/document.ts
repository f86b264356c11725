// The OpenAPI document's frame (info, security schemes, tags) and the transform that completes
// it from what the routes declared: each operation's rule as `x-auth`, descriptions, the rules'
// notes, examples, the webhooks and the named schemas.
import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.js';
import type { AuthRule } from '../http/auth.js';
import { addExamples, type OperationExamples } from '../http/examples.js';
import { nameSchemas } from './components.js';
import { contactFor, describeOperations } from './descriptions.js';
import { OPENAPI_DESCRIPTION } from './document-text.js';
import { applyRules } from './rules.js';
import { addWebhooks } from './webhooks.js';
import { routeNeed } from '../http/permissions.js';

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'sk_… full key or pk_… checkout key',
  },
  session: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'idToken from POST /auth/login',
  },
  doorPass: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      '`DoorPass <token>`: the token of a door pass URL (`/door/{token}`); opens one event’s door only',
  },
} as const;

const TAGS = [
  { name: 'identity', description: 'Who the key belongs to' },
  { name: 'dashboard', description: 'Accounts, sessions and API keys (session token)' },
  { name: 'admin', description: 'Platform staff only (session token of a staff member)' },
  { name: 'events', description: 'Events: drafts, publishing, seats, analytics' },
  { name: 'tracks', description: 'Bookable sessions inside an event, addressed by index' },
  { name: 'registrations', description: 'Bookings and their attendees' },
  { name: 'waitlist', description: 'Waitlists of sold-out events: joining, the queue, timed offers' },
  {
    name: 'seating',
    description: 'Reserved seating: an account’s reusable seating plans (sections, rows, seats, categories)',
  },
  {
    name: 'attendee',
    description:
      'The attendee’s own page /t/{token}: the ticket, and transfer or cancellation under the event’s policy',
  },
  { name: 'check-in', description: 'Door: look up and admit tickets' },
  { name: 'broadcast', description: 'Email the event’s own attendees' },
  { name: 'memberships', description: 'Plans, members, mandates and standing' },
  {
    name: 'gst',
    description: 'GST settings, tax invoices, bills of supply and credit notes, and the GSTR-1 summary',
  },
  { name: 'exports', description: 'CSV files of registrations, members, the ledger and GST documents' },
  { name: 'webhooks', description: 'Signed notifications to the organiser’s server' },
  {
    name: 'sandbox',
    description: 'Test keys only: play the buyer and the gateway; read the mails test mode kept',
  },
  { name: 'gateway', description: 'Notifications from the payment gateway and the WhatsApp Cloud API' },
  {
    name: 'tickets',
    description:
      'The attendee’s ticket in Apple Wallet and Google Wallet (the attendee page’s token is the credential)',
  },
  {
    name: 'checkout',
    description:
      'The browser side: embed.js, the hosted event page and the JSON calls it makes (no key for live events)',
  },
  {
    name: 'waiting room',
    description:
      'A fair queue in front of a high-demand sale (docs/decisions/26-a-fair-waiting-room.md): the proof-of-work challenge, joining, and a place’s state with its admission token (no key)',
  },
  { name: 'operations', description: 'Health and the API description' },
];

/** The @fastify/swagger options: the document's frame, and the transform that completes it. */
export function openApiOptions(o: {
  config: Pick<Config, 'mailFrom' | 'baseUrl'>;
  rules: ReadonlyMap<string, AuthRule>;
  examples: ReadonlyMap<string, OperationExamples>;
}): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Event Ticketing and Memberships API',
        version: '1.0.0',
        description: OPENAPI_DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: contactFor(o.config.mailFrom, o.config.baseUrl),
      },
      servers: [{ url: o.config.baseUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
      tags: TAGS,
    },
    transformObject: (documentObject) => {
      const openapiObject = (documentObject as { openapiObject: { paths?: Record<string, unknown> } })
        .openapiObject;
      for (const [path, item] of Object.entries(openapiObject.paths ?? {})) {
        for (const [method, op] of Object.entries(item as Record<string, Record<string, unknown>>)) {
          const rule = o.rules.get(`${method} ${path}`);
          if (rule && typeof op === 'object') op['x-auth'] = rule;
          // The permission a member's role must hold (docs/decisions/25-organiser-teams-and-roles.md).
          const need =
            rule?.kind === 'session'
              ? routeNeed(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1'))
              : undefined;
          if (need && typeof op === 'object') op['x-permission'] = need;
        }
      }
      describeOperations(openapiObject as Record<string, unknown>);
      applyRules(openapiObject as Record<string, unknown>);
      addExamples(openapiObject as Record<string, unknown>, o.examples);
      addWebhooks(openapiObject as Record<string, unknown>);
      nameSchemas(openapiObject as Record<string, unknown>);
      return openapiObject as never;
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  };
}
