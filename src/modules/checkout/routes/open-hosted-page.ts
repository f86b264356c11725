// The hosted checkout page of an event, server-rendered.
import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { type EventRow, isSeated } from '../../events/events.service.js';
import { seatMapOf, sittingOf } from '../../seat-holds/event-seats.service.js';
import * as service from '../checkout.service.js';
import { renderEventPage } from '../page.html.js';
import {
  Access,
  EmbedField,
  Html,
  htmlErrors,
  PAGE_AUTH,
  pageCsp,
  Slug,
  type CheckoutContext,
} from '../page-context.js';

const examples: OperationExamples = {
  params: { key: EX.checkoutKey },
  responses: {
    '200':
      '<!doctype html><html lang="en"><head><title>Pune Tech Summit 2027</title></head><body>…</body></html>',
  },
};

/** An event seated track by track: the session asked for (404 for none such), or null before one is chosen. */
function seatedByTrack(event: EventRow, subEventId: string | undefined, offer?: { track: number | null }) {
  if (event.seating_plan_id !== null || !isSeated(event)) return undefined;
  // A waitlist offer's page is the offer's session's.
  if (offer?.track != null) return { chosen: offer.track };
  return { chosen: subEventId === undefined ? null : sittingOf(event, subEventId) };
}

export const openHostedPage: Operation<CheckoutContext> = (
  app,
  { deps, assets, s, htmlErrorHandler, html },
) =>
  app.get(
    '/e/:slug',
    {
      config: { auth: { kind: 'public' }, examples },
      errorHandler: htmlErrorHandler,
      schema: {
        operationId: 'openHostedPage',
        tags: ['checkout'],
        summary: 'The hosted checkout page of an event',
        description: [
          'Server-rendered HTML: title, date (in words, in the event’s time zone, labelled: `EVENT_TIME_ZONE`, India Standard Time by default), venue, description, sessions and tickets with live availability, the event’s questions, team members when maxTeamSize > 1, and a promo code with an Apply button that says what the code did (a code typed but not applied is applied, and said, on the first press of the button, which then waits for the next). When the event has sessions (tracks) none is chosen for the buyer; each session shows its own time, the whole event is a choice only where the event’s `wholeEventOption` is on, and each ticket type shows its price in the chosen session (before a choice, the range over the sessions on sale). An order summary (session, ticket, people, price, discount, total; the discount priced by `POST /e/{slug}/quote`) sits above the button, which says “Register” for a free choice and “Pay ₹X” for a paid one. Each field’s error is shown at the field (`aria-invalid`, `aria-describedby`). A members-only tier, once chosen, shows “Email me a code” (`POST /e/{slug}/member-code`), the code’s field (`POST /e/{slug}/member-code/verify`, whose proof the booking carries as `memberProof`), “I have my membership id instead”, and “Not a member? Join: <plan>” linking each plan page of the account (`/m/{slug}` with `from` this event). Registers through the same rules as the API (free, paid, approval, members-only tiers) and shows the confirmation — the header then names the booked session and its time; what was booked and paid, the ticket’s QR code, “Add to calendar” (.ics) and a Google Calendar link, from `GET /e/{slug}/tickets/{token}` — and the `awaiting approval`, sold-out and error states.',
          'An event with a seating plan shows its seat map above the form: the plan drawn as an inline SVG (a seat per circle at its place, coloured by category, taken seats small and grey, seats not for sale hollow, accessible seats ringed, the stage as a bar) with a legend of the categories and their prices. The page script makes the map one tab stop, a listbox of seats: the arrow keys move (left and right in a row, up and down to the nearest seat of the next row), Enter or Space chooses, and each seat is named like “Row C, seat 12, Gold, ₹1,500, available”; it zooms with its buttons (and + and −) and pans by dragging. Chosen seats are held at once through `POST /e/{slug}/seats/hold`, each change replacing the hold, and listed with a Remove button each and the hold’s countdown (“Seats held for 9:42”; at 0 they are dropped and the buyer told); “Best available” holds the best seats of a category in their place. One seat per person, of one category: a team event asks for a team member per seat after the buyer’s, up to its `maxTeamSize`. The statuses refresh every 5 seconds (`GET /e/{slug}/seats/statuses`); the booking carries the hold’s token, and a hold found lapsed drops the seats for the buyer to choose again. A page of 64 KB or more (a map of thousands of seats) is sent gzipped to a browser that takes it. An event seated track by track (each track its own plan) first lists its sessions with “Show the seats”, a plain GET form that opens the page again with `subEventId`; the page then draws that session’s map, lists the chosen session alone (checked) with a link back to the others, and every seat call and the booking name the session.',
          PAGE_AUTH,
          'While the event’s waiting room is on (`onSale.waitingRoom.enabled`), the page first shows the room’s steps, and the booking form only once the queue admits the buyer: the email (and, where the service sends WhatsApp, a phone and the choice of channel for the code), the proof of work solved in the browser (`GET /e/{slug}/queue/challenge`, solved by altcha-lib’s SHA-256 solver in a Web Worker, `/embed/pow-worker.js`), `POST /e/{slug}/queue/join`, the code (`POST /e/{slug}/queue/verify`), then the waiting screen: place, people ahead and the estimated wait in words (before the opening, a countdown to `opensAt` in the event’s time zone), asked every 5 seconds (`GET /e/{slug}/queue/status`) and announced politely to a screen reader when it changes (at most once a minute for the numbers). The place’s status token is kept in the browser’s localStorage, so a reload returns to the same screen. Admitted, the booking form shows with the time left to book, the email fixed to the queue’s, and the booking carries the admission token; a lapsed session says so; sold out (`soldOut` in the status) tells everyone waiting and offers the waitlist’s form.',
          'Sold out with a waitlist: a form that joins it (`POST /e/{slug}/waitlist`). Opened with `offer` (a waitlist offer’s link): the form books the one seat the offer holds, sold out or not; on a seated event the map takes one seat, of the offer’s category only (the others are “not on sale” to this page), in the offer’s session when the event is seated track by track; a lapsed or used offer answers 409 `offer_not_valid` as a page.',
          'Paid live bookings open Razorpay’s checkout.js (`key`, `order_id`, prefill); its handler’s three fields go to `POST /e/{slug}/payment`. Test events use the service’s own sandbox checkout stand-in and load no gateway script.',
          'Headers: `Content-Security-Policy` allows only this service’s script and style (and Razorpay’s checkout on live pages) and `frame-ancestors *`, except that a page opened with a checkout key pinned to an origin (`key=pk_…`, test or live) answers `frame-ancestors <that origin>`: only the pinned site may frame it, whatever `origin` says. No cookies. The page posts `{ ns: "svc", v: 1, type, … }` messages (`ready`, `resize { height }`, `registered { eventSlug, status }`, `close`) only to the key’s pinned origin (without a pin, to the declared `origin`), never to `*`.',
        ].join('\n\n'),
        params: Slug,
        querystring: Type.Object({
          ...Access,
          embed: Type.Optional(EmbedField),
          subEventId: Type.Optional(
            Type.String({
              maxLength: 10,
              description:
                'For an event seated track by track: the session (track index) whose seat map to draw, as the page’s “Show the seats” button sends it; 404 for no such track.',
            }),
          ),
        }),
        response: { 200: Html('The event page.'), ...htmlErrors([400, 403, 404, 409, 429, 500]) } as never,
      },
    },
    async (req, reply) => {
      const access = await service.openPage(
        deps,
        req.params.slug,
        req.query.key,
        req.query.origin,
        req.query.offer,
        req.query.preview,
      );
      const offer =
        req.query.offer === undefined ? undefined : await service.offerOnPage(deps, access, req.query.offer);
      const facts = await service.pageFacts(deps, access.event);
      const joinPlans = facts.availability.tiers.some((t) => t.membersOnly)
        ? await service.joinPlans(deps, access.event)
        : undefined;
      const seatTracks = seatedByTrack(access.event, req.query.subEventId, offer);
      const seatMap =
        access.event.seating_plan_id !== null
          ? await seatMapOf(deps, access.event)
          : seatTracks?.chosen != null
            ? await seatMapOf(deps, access.event, seatTracks.chosen)
            : undefined;
      const page = renderEventPage({
        strings: s,
        assets,
        facts,
        slug: access.event.slug,
        mode: access.event.mode,
        embed: req.query.embed ?? 'none',
        origin: access.origin,
        key: access.event.mode === 'test' ? (req.query.key ?? null) : null,
        timeZone: deps.config.eventTimeZone,
        offer,
        joinPlans,
        preview:
          access.preview && req.query.preview
            ? { token: req.query.preview, bookable: access.preview.bookable }
            : undefined,
        seatMap,
        seatTracks,
        room: access.event.on_sale?.waitingRoom.enabled
          ? {
              opensAt: access.event.on_sale.opensAt,
              whatsapp:
                deps.config.whatsapp.sender !== undefined && deps.config.whatsapp.codeTemplate !== undefined,
            }
          : undefined,
      });
      return html(
        reply,
        page,
        pageCsp(access.event.mode === 'live', access.pinnedOrigin),
        req.headers['accept-encoding'],
      );
    },
  );
