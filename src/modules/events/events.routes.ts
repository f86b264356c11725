import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ANY_KEY, FULL_ONLY, keyPrincipal, sessionPrincipal } from '../../http/auth.js';
import { Analytics, Availability, Event, EventCreate, EventPatch, Track, TrackInput, TrackPatch } from './events.schemas.js';
import { presentEvent } from './events.present.js';
import * as events from './events.service.js';
import * as tracks from './tracks.service.js';
import { PageFields, PageQuery, parseLimit } from '../../http/paging.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }) });
const TrackParams = Type.Object({ id: Type.String({ maxLength: 100 }), index: Type.String({ maxLength: 10, description: 'Zero-based track index' }) });
const EventAnswer = Type.Object({ success: Type.Literal(true), data: Event });
const ownershipErrors = { 404: Type.Ref('Error') };

export const eventsRoutes =
  (deps: events.EventDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const present = async (row: events.EventRow) => presentEvent(row, await events.usageFor(deps.db, row.id));

    app.get(
      '/api/v1/events',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['events'],
          summary: "This account's events in the key's mode, one page at a time",
          description:
            'Newest start date first; events without a start date last. At most `limit` events (default 100, at most 1,000); `hasMore` and `nextCursor` tell whether more follow, read them with `startingAfter=<nextCursor>`. `count` is the total. A checkout key reads only published events (and, in test mode, the account’s draft test events too).',
          querystring: Type.Object(PageQuery, { additionalProperties: false }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Event), count: Type.Integer({ description: 'Events in the whole list.' }), ...PageFields }) },
        },
      },
      async (req) => {
        const page = await events.listEventsPage(deps.db, keyPrincipal(req), { limit: parseLimit(req.query.limit), startingAfter: req.query.startingAfter });
        return { success: true as const, data: page.items, count: page.count, hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    );

    app.post(
      '/api/v1/events',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['events'],
          summary: 'Create an event (always a draft, in the key’s mode)',
          description:
            'The slug is derived from the title once, at creation, and made unique with a short suffix when taken; changing the title later keeps the slug.',
          body: EventCreate,
          response: { 201: EventAnswer },
        },
      },
      async (req, reply) => reply.code(201).send({ success: true as const, data: await present(await events.createEvent(deps, keyPrincipal(req), req.body)) }),
    );

    app.get(
      '/api/v1/events/:id',
      {
        config: { auth: ANY_KEY },
        schema: { tags: ['events'], summary: 'One event with its tracks and seat counts', description: 'A checkout key reads only published events (in test mode also draft test events); a live draft answers it 404.', params: IdParams, response: { 200: EventAnswer, ...ownershipErrors } },
      },
      async (req) => ({ success: true as const, data: await present(await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id)) }),
    );

    app.patch(
      '/api/v1/events/:id',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['events'],
          summary: 'Change any creation field, or publish / unpublish with status',
          description:
            'Fields left out keep their value; `null` clears endDate or location. Publishing a **test** event needs nothing more (test events are never public). Publishing a **live** event needs canPublish (403 `organiser_access_required` otherwise; ask for it with `POST /dashboard/api/publishing-access`). A live event that costs money (a base, tier or track price above 0) is refused with 409 `payments_not_configured` while the service takes no live payments (its Razorpay keys are not set), when it is published or when a published one is made paid; free events publish meanwhile.',
          params: IdParams,
          body: EventPatch,
          response: { 200: EventAnswer, ...ownershipErrors },
        },
      },
      async (req) => ({ success: true as const, data: await present(await events.patchEvent(deps, keyPrincipal(req), req.params.id, req.body)) }),
    );

    app.delete(
      '/api/v1/events/:id',
      {
        config: { auth: { kind: 'session' } },
        schema: {
          tags: ['events'],
          summary: 'Delete an event and all its registrations (session token only)',
          description:
            'Needs `Authorization: Bearer <idToken>`; an x-api-key alone answers 401 `Missing Authorization Bearer token`. Deleting removes the event’s bookings, so a live event answers 409 `has_payments_in_flight` while any booking has a payment in flight (pending with a gateway order), captured and kept (confirmed paid), or captured and not yet refunded: refund or cancel them first. `force=true` is honoured for platform staff only (who may also delete any account’s event): every such booking is refunded in full at the gateway first (recorded in the ledger like any refund; a pending one is cancelled and its order watched for late payments), then the event is deleted; 502 when the gateway fails (nothing is deleted). Test events move no money and skip the check. The ledger keeps the entries of a deleted event’s bookings.',
          params: IdParams,
          querystring: Type.Object({ force: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) }),
          response: {
            200: Type.Object({ success: Type.Literal(true), deleted: Type.Literal(true), id: Type.String({ description: 'The deleted event’s id.' }) }),
            403: Type.Ref('Error'),
            404: Type.Ref('Error'),
            409: Type.Ref('Error'),
            502: Type.Ref('Error'),
          },
        },
      },
      async (req) => {
        await events.deleteEvent(deps, sessionPrincipal(req), req.params.id, req.query.force === 'true');
        return { success: true as const, deleted: true as const, id: req.params.id };
      },
    );

    app.get(
      '/api/v1/events/:id/tracks',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['tracks'],
          summary: 'The event’s tracks in order',
          params: IdParams,
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Track), count: Type.Integer() }), ...ownershipErrors },
        },
      },
      async (req) => {
        const row = await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id);
        const data = (await present(row)).tracks;
        return { success: true as const, data, count: data.length };
      },
    );

    app.post(
      '/api/v1/events/:id/tracks',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['tracks'],
          summary: 'Append a track',
          description:
            'A track is a session with its own time: `startsAt` and `endsAt` (date-times with offset; or `date`, which may also be a bare day, and `endDate`). Without them the track runs as the event does (and follows it while unset). A booking on the track is shown, mailed, put in calendars and wallets, and its self-service cutoff counted, by the track’s times.',
          params: IdParams,
          body: TrackInput,
          response: { 201: Type.Object({ success: Type.Literal(true), data: Track }), ...ownershipErrors },
        },
      },
      async (req, reply) => {
        const { index, row } = await tracks.addTrack(deps, keyPrincipal(req), req.params.id, req.body);
        const data = (await present(row)).tracks[index]!;
        return reply.code(201).send({ success: true as const, data });
      },
    );

    app.patch(
      '/api/v1/events/:id/tracks/:index',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['tracks'],
          summary: 'Change a track by index',
          description: 'An index out of range answers 404 and creates nothing. Indexes are positional: re-read the tracks first if they may have changed.',
          params: TrackParams,
          body: TrackPatch,
          response: { 200: Type.Object({ success: Type.Literal(true), data: Track }), ...ownershipErrors },
        },
      },
      async (req) => {
        const index = events.parseTrackIndex(req.params.index);
        const row = await tracks.patchTrack(deps, keyPrincipal(req), req.params.id, index, req.body);
        return { success: true as const, data: (await present(row)).tracks[index]! };
      },
    );

    app.delete(
      '/api/v1/events/:id/tracks/:index',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['tracks'],
          summary: 'Remove a track nobody has booked',
          description:
            'Bookings, waitlist entries, tickets and the door name a track by its index, so a track is removed only while no booking (of any status, cancelled ones too) or waitlist entry names it or a later track: 409 `track_in_use` otherwise (the later tracks’ indexes would move under their bookings). The tracks after it move down by one. Answers the event’s tracks as they are now. An index out of range answers 404.',
          params: TrackParams,
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Track), count: Type.Integer() }), ...ownershipErrors, 409: Type.Ref('Error') },
        },
      },
      async (req) => {
        const row = await tracks.removeTrack(deps, keyPrincipal(req), req.params.id, events.parseTrackIndex(req.params.index));
        const data = (await present(row)).tracks;
        return { success: true as const, data, count: data.length };
      },
    );

    app.get(
      '/api/v1/events/:id/availability',
      {
        config: { auth: ANY_KEY },
        schema: {
          tags: ['events'],
          summary: 'Seats: the same numbers enforced when a registration is confirmed',
          description:
            'Seats are held by confirmed registrations and by open waitlist offers (a held seat counts as taken until it is booked or lapses). `waitlist.waiting` says how many people wait. With `subEventId` (a track index as a decimal string) `capacity` and `taken` are the track’s and `remaining` is the tighter of the track’s and the event’s. Each tier’s `remaining` is the tighter of its own and the overall remaining. `tiers[]` lists specialPrices; the base price is not a tier.',
          params: IdParams,
          querystring: Type.Object({ subEventId: Type.Optional(Type.String({ maxLength: 10 })) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Availability }), ...ownershipErrors },
        },
      },
      async (req) => {
        const row = await events.loadReadableEvent(deps.db, keyPrincipal(req), req.params.id);
        return { success: true as const, data: await events.availability(deps, row, req.query.subEventId) };
      },
    );

    app.get(
      '/api/v1/events/:id/analytics',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['events'],
          summary: 'Registration counts and revenue',
          description: 'Counts are of bookings. `cancelledCount` excludes refunded bookings, which are in `refundedCount`.',
          params: IdParams,
          response: { 200: Analytics, ...ownershipErrors },
        },
      },
      async (req) => events.analytics(deps, await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id)),
    );
  };
