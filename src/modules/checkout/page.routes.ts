// The hosted page's HTML: the event page, the live payment fallback page and the
// gateway's redirect back to it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import * as service from './checkout.service.js';
import type { FastifyRequest } from 'fastify';
import {
  eventPageHref,
  renderEventPage,
  renderMessagePage,
  renderPaymentPage,
  type BackLink,
} from './page.html.js';
import {
  Access,
  callSource,
  EmbedField,
  EMBEDS,
  Html,
  htmlErrors,
  MESSAGE_CSP,
  PAGE_AUTH,
  pageCsp,
  Slug,
  type CheckoutContext,
} from './page-context.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

export function eventPageRoute(app: App, ctx: CheckoutContext): void {
  const { deps, assets, s, htmlErrorHandler, html } = ctx;
  app.get(
    '/e/:slug',
    {
      config: { auth: { kind: 'public' } },
      errorHandler: htmlErrorHandler,
      schema: {
        tags: ['checkout'],
        summary: 'The hosted checkout page of an event',
        description: [
          'Server-rendered HTML: title, date (in words, in the event’s time zone, labelled: `EVENT_TIME_ZONE`, India Standard Time by default), venue, description, sessions and tickets with live availability, the event’s questions, team members when maxTeamSize > 1, and a promo code with an Apply button that says what the code did (a code typed but not applied is applied, and said, on the first press of the button, which then waits for the next). When the event has sessions (tracks) none is chosen for the buyer; each session shows its own time, the whole event is a choice only where the event’s `wholeEventOption` is on, and each ticket type shows its price in the chosen session (before a choice, the range over the sessions on sale). An order summary (session, ticket, people, price, discount, total; the discount priced by `POST /e/{slug}/quote`) sits above the button, which says “Register” for a free choice and “Pay ₹X” for a paid one. Each field’s error is shown at the field (`aria-invalid`, `aria-describedby`). A members-only tier, once chosen, shows “Email me a code” (`POST /e/{slug}/member-code`), the code’s field (`POST /e/{slug}/member-code/verify`, whose proof the booking carries as `memberProof`), “I have my membership id instead”, and “Not a member? Join: <plan>” linking each plan page of the account (`/m/{slug}` with `from` this event). Registers through the same rules as the API (free, paid, approval, members-only tiers) and shows the confirmation — the header then names the booked session and its time; what was booked and paid, the ticket’s QR code, “Add to calendar” (.ics) and a Google Calendar link, from `GET /e/{slug}/tickets/{token}` — and the `awaiting approval`, sold-out and error states.',
          PAGE_AUTH,
          'Sold out with a waitlist: a form that joins it (`POST /e/{slug}/waitlist`). Opened with `offer` (a waitlist offer’s link): the form books the one seat the offer holds, sold out or not; a lapsed or used offer answers 409 `offer_not_valid` as a page.',
          'Paid live bookings open Razorpay’s checkout.js (`key`, `order_id`, prefill); its handler’s three fields go to `POST /e/{slug}/payment`. Test events use the service’s own sandbox checkout stand-in and load no gateway script.',
          'Headers: `Content-Security-Policy` allows only this service’s script and style (and Razorpay’s checkout on live pages) and `frame-ancestors *`, except that a page opened with a checkout key pinned to an origin (`key=pk_…`, test or live) answers `frame-ancestors <that origin>`: only the pinned site may frame it, whatever `origin` says. No cookies. The page posts `{ ns: "svc", v: 1, type, … }` messages (`ready`, `resize { height }`, `registered { eventSlug, status }`, `close`) only to the key’s pinned origin (without a pin, to the declared `origin`), never to `*`.',
        ].join('\n\n'),
        params: Slug,
        querystring: Type.Object({ ...Access, embed: Type.Optional(EmbedField) }),
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
      });
      return html(reply, page, pageCsp(access.event.mode === 'live', access.pinnedOrigin));
    },
  );
}

export async function paymentPageRoutes(app: App, ctx: CheckoutContext): Promise<void> {
  const { deps, assets, s, htmlErrorHandler, html } = ctx;
  app.get(
    '/e/:slug/pay',
    {
      config: { auth: { kind: 'public' } },
      errorHandler: htmlErrorHandler,
      schema: {
        tags: ['checkout'],
        summary: 'Live events: a top-level payment page for a pending booking',
        description:
          'The fallback where the gateway’s checkout cannot run inside a frame: opens Razorpay’s checkout with `callback_url` (`POST /e/{slug}/callback`) and `redirect: true`. Shows no personal data. Public for a published live event; 404 for anything else or an order that is not pending on this event.',
        params: Slug,
        querystring: Type.Object({
          order: Type.String({
            maxLength: 100,
            pattern: '^[A-Za-z0-9_]+$',
            description: 'The booking’s gateway order id (letters, digits and `_`).',
          }),
        }),
        response: { 200: Html('The payment page.'), ...htmlErrors([400, 404, 429, 500]) } as never,
      },
    },
    async (req, reply) => {
      const access = await service.openPage(deps, req.params.slug, undefined, undefined);
      const order = await service.pendingPayment(deps, access, req.query.order);
      const page = renderPaymentPage({
        strings: s,
        assets,
        title: access.event.title,
        order,
        callbackUrl: `${deps.config.baseUrl}/e/${encodeURIComponent(access.event.slug)}/callback`,
        mode: 'live',
      });
      return html(reply, page, pageCsp(true));
    },
  );

  // The gateway's redirect posts a form; only this route parses one.
  await app.register(async (form) => {
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    // The answer, and any refusal, links back to the event's page as the widget had it open.
    const backToEvent = (req: FastifyRequest): BackLink => {
      const b = (req.body ?? {}) as { key?: unknown; origin?: unknown; embed?: unknown };
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const embed = EMBEDS.find((e) => e === b.embed);
      return {
        href: eventPageHref((req.params as { slug: string }).slug, {
          key: text(b.key),
          origin: text(b.origin),
          embed,
        }),
        label: s.backToEvent,
      };
    };
    form.post(
      '/e/:slug/waitlist',
      {
        bodyLimit: 16 * 1024,
        config: { auth: { kind: 'public' } },
        errorHandler: (err, req, reply) => htmlErrorHandler(err, req, reply, backToEvent(req)),
        schema: {
          tags: ['checkout'],
          summary: 'Join the waitlist from the sold-out page (a plain form)',
          description: [
            'The same rules as `POST /api/v1/events/{id}/waitlist` (409 `seats_available` when not sold out, `waitlist_closed` without a waitlist), for the whole event. Answers an HTML page with the place in the queue; nothing personal.',
            PAGE_AUTH,
          ].join('\n\n'),
          consumes: ['application/x-www-form-urlencoded'],
          params: Slug,
          body: Type.Object(
            {
              key: Type.Optional(Type.String({ maxLength: 100 })),
              preview: Type.Optional(Type.String({ maxLength: 160 })),
              origin: Type.Optional(
                Type.String({
                  maxLength: 300,
                  description:
                    'The origin the page was opened for (it grants nothing): the answer’s link back to the event keeps it.',
                }),
              ),
              embed: Type.Optional(EmbedField),
              name: Type.String({ minLength: 1, maxLength: 200 }),
              email: Type.String({ minLength: 3, maxLength: 254 }),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Html('On the waitlist.'),
            ...htmlErrors([400, 403, 404, 409, 413, 415, 429, 500]),
          } as never,
        },
      },
      async (req, reply) => {
        const b = req.body as {
          key?: string;
          origin?: string;
          preview?: string;
          name: string;
          email: string;
        };
        const access = await service.openPageCall(
          deps,
          (req.params as { slug: string }).slug,
          b.key,
          b.origin,
          callSource(req),
          undefined,
          b.preview,
        );
        const joined = await service.joinFromPage(deps, access, { name: b.name, email: b.email });
        const text =
          joined.status === 'offered'
            ? 'A seat is already held for you: look for the offer mail.'
            : `You are number ${joined.position} on the waitlist. If a seat comes free we will mail you a link that holds it for you.`;
        return html(
          reply,
          renderMessagePage(s, assets, 'You are on the waitlist', text, undefined, backToEvent(req)),
          MESSAGE_CSP,
        );
      },
    );

    form.post(
      '/e/:slug/callback',
      {
        // The route's limit wins over the parser's: state the form's own here too.
        bodyLimit: 16 * 1024,
        config: { auth: { kind: 'public' } },
        errorHandler: htmlErrorHandler,
        schema: {
          tags: ['checkout'],
          summary: 'Live events: where the gateway’s checkout returns after a redirect',
          description:
            'Razorpay posts `razorpay_payment_id`, `razorpay_order_id` and `razorpay_signature` (or `error[…]` fields) as a form. The booking is confirmed exactly as `POST /e/{slug}/payment` does, and an HTML page says what happened.',
          consumes: ['application/x-www-form-urlencoded'],
          params: Slug,
          body: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), {
            maxProperties: 30,
          }),
          response: {
            200: Html('What happened to the payment.'),
            ...htmlErrors([400, 402, 404, 409, 413, 415, 429, 500, 502, 503]),
          } as never,
        },
      },
      async (req, reply) => {
        const access = await service.openPage(
          deps,
          (req.params as { slug: string }).slug,
          undefined,
          undefined,
        );
        const b = req.body as Record<string, string | undefined>;
        const orderId = b.razorpay_order_id;
        const paymentId = b.razorpay_payment_id;
        const signature = b.razorpay_signature;
        if (!orderId || !paymentId || !signature) {
          const reason = b['error[description]'] ?? '';
          return html(
            reply.code(200),
            renderMessagePage(
              s,
              assets,
              s.script.paymentPendingTitle,
              `${s.script.paymentPending} ${reason}`.trim(),
            ),
            MESSAGE_CSP,
          );
        }
        await service.confirmFromPage(deps, access, {
          razorpay_order_id: orderId,
          razorpay_payment_id: paymentId,
          razorpay_signature: signature,
        });
        return html(
          reply,
          renderMessagePage(s, assets, s.script.confirmedTitle, s.callbackConfirmed),
          MESSAGE_CSP,
        );
      },
    );
  });
}
