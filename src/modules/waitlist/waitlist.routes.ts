// The waitlist's API: joining (any key, nothing personal comes back), and the
// organiser's queue (full keys): read it, take someone off it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ANY_KEY, FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';
import { Nullable } from '../../http/schemas.js';
import * as waitlist from './waitlist.service.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }) });
const EntryParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }), entryId: Type.String({ maxLength: 100, description: 'Waitlist entry id' }) });
const E = Type.Ref('Error');

export const Entry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  ticketType: Type.String(),
  subEventId: Nullable(Type.String()),
  status: Type.Union([Type.Literal('waiting'), Type.Literal('offered'), Type.Literal('booked'), Type.Literal('lapsed'), Type.Literal('removed')], {
    description: '`offered`: holds a seat until `expiresAt`; `booked`: booked from the offer (`registrationId`); `lapsed`: the offer ran out and passed on.',
  }),
  offeredAt: Nullable(Type.String({ format: 'date-time' })),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  registrationId: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
});

const RULES = [
  'First come, first offered: when a seat comes free (a cancellation, a refund, a capacity raised, an offer lapsing or removed) it is offered, in the same transaction, to the earliest entry it fits, and held for it: a held seat counts as taken, so nobody else can book it. The offer mail’s link (`/e/{slug}?offer=<token>`) books that one seat (register with `waitlistOffer`) until `offerMinutes` have passed; then the offer lapses and the seat passes to the next in line. The organiser’s webhook `waitlist.offered` fires with each offer.',
].join('');

export const waitlistRoutes =
  (deps: waitlist.WaitlistDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/events/:id/waitlist',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['waitlist'],
          summary: 'Join the waitlist of a sold-out event, track or tier',
          description: [
            'Takes a name only when what is asked for is sold out (409 `seats_available` otherwise) and the event (or the track) has `waitlist.enabled` (409 `waitlist_closed`). A checkout key may call it; the answer carries nothing personal, only where the person stands. The same email for the same choice keeps its place (the same answer again).',
            RULES,
          ].join('\n\n'),
          params: IdParams,
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 200 }),
              email: Type.String({ minLength: 3, maxLength: 254 }),
              subEventId: Type.Optional(Type.String({ maxLength: 10, description: 'A track index: wait for that track.' })),
              ticketType: Type.Optional(Type.String({ maxLength: 80, description: 'A tier’s name: wait for that tier.' })),
            },
            { additionalProperties: false },
          ),
          response: {
            201: Type.Object({
              success: Type.Literal(true),
              status: Type.Union([Type.Literal('waiting'), Type.Literal('offered')], { description: '`offered`: this email already holds an offer for this choice.' }),
              position: Type.Integer({ description: 'Place in the queue for this choice, from 1 (0 when holding an offer).' }),
            }),
            400: E,
            404: E,
            409: E,
          },
        },
      },
      async (req, reply) => {
        const joined = await waitlist.join(deps, keyPrincipal(req), req.params.id, req.body);
        return reply.code(201).send({ success: true as const, ...joined });
      },
    );

    app.get(
      '/api/v1/events/:id/waitlist',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['waitlist'],
          summary: 'The event’s waitlist, in arrival order',
          description: ['Personal data: full keys only. `open=true` lists only those waiting or holding an offer. Paged like every list; `count` is the total.', RULES].join('\n\n'),
          params: IdParams,
          querystring: Type.Object({ ...PageQuery, open: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) }, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Entry), count: Type.Integer(), ...PageFields }), 400: E, 404: E },
        },
      },
      async (req) => {
        const page = await waitlist.listEntries(deps.db, keyPrincipal(req), req.params.id, {
          limit: parseLimit(req.query.limit),
          startingAfter: req.query.startingAfter,
          open: req.query.open === 'true',
        });
        return { success: true as const, data: page.items, count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    app.delete(
      '/api/v1/events/:id/waitlist/:entryId',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['waitlist'],
          summary: 'Take someone off the waitlist',
          description: 'A waiting entry leaves the queue; an offer it held is withdrawn and its seat offered to the next in line at once. 409 `waitlist_entry_ended` when it was already booked, lapsed or removed.',
          params: EntryParams,
          response: { 200: Type.Object({ success: Type.Literal(true), data: Entry }), 404: E, 409: E },
        },
      },
      async (req) => ({ success: true as const, data: waitlist.presentEntry(await waitlist.removeEntry(deps, keyPrincipal(req), req.params.id, req.params.entryId)) }),
    );
  };
