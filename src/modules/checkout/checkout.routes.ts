// The browser side: the hosted event page, its JSON calls,
// the payment fallback page and the gateway's redirect back, and the static scripts
// (embed.js for host pages, the page's own script and style) with ETags.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { AppError } from '../../shared/errors.js';
import { parseJsonKeepingEveryKey } from '../../shared/json-body.js';
import { CustomFieldAnswers } from '../registrations/registrations.routes.js';
import * as service from './checkout.service.js';
import { renderEventPage, renderMessagePage, renderPaymentPage, type Assets } from './page.html.js';
import { en } from './strings.js';

// assets/ sits at the project root: three levels up from src/modules/checkout and from
// dist/modules/checkout alike.
const ASSET_DIR = new URL('../../../assets/', import.meta.url);

interface Asset {
  body: string;
  etag: string;
  version: string;
  type: string;
}

function loadAsset(name: string, type: string): Asset {
  const body = readFileSync(fileURLToPath(new URL(name, ASSET_DIR)), 'utf8');
  const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, etag: `"${version}"`, version, type };
}

// checkout.js itself comes only from its own origin; the modal it builds frames, calls and
// draws from Razorpay's hosts and styles itself inline, so live pages allow exactly that.
const RAZORPAY_SCRIPT = 'https://checkout.razorpay.com';
const RAZORPAY_HOSTS = 'https://*.razorpay.com';

/** Our pages load only our own script and style; live pages add Razorpay's checkout. */
export function pageCsp(live: boolean): string {
  return [
    "default-src 'none'",
    `script-src 'self'${live ? ` ${RAZORPAY_SCRIPT}` : ''}`,
    `style-src 'self'${live ? " 'unsafe-inline'" : ''}`,
    `img-src 'self' data:${live ? ` ${RAZORPAY_HOSTS}` : ''}`,
    `connect-src 'self'${live ? ` ${RAZORPAY_HOSTS}` : ''}`,
    ...(live ? [`frame-src ${RAZORPAY_HOSTS}`] : []),
    `form-action 'self'${live ? ` ${RAZORPAY_HOSTS}` : ''}`,
    "base-uri 'none'",
    'frame-ancestors *',
  ].join('; ');
}

const MESSAGE_CSP = "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

const Html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const htmlErrors = (statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Html(s === 404 ? 'No such page: an unknown slug, an unpublished live event, or a test event without its key.' : 'An HTML page naming the problem.')]));
const E = Type.Ref('Error');

const Slug = Type.Object({ slug: Type.String({ maxLength: 80, description: 'The event’s slug.' }) });
const KeyField = Type.String({ maxLength: 100, description: 'Test events only: a `pk_test_` checkout key of the event’s account (the widget’s `data-svc-key`).' });
const OriginField = Type.String({ maxLength: 300, description: 'The embedding page’s origin (set by embed.js); a pinned key must be pinned to it.' });
const EmbedField = Type.Union([Type.Literal('inline'), Type.Literal('overlay'), Type.Literal('popup'), Type.Literal('none')], {
  description: 'How embed.js shows the page; `none` (default) is a page of its own.',
});
const Access = { key: Type.Optional(KeyField), origin: Type.Optional(OriginField) };

const PAGE_AUTH =
  'No credentials: a published live event is public. A test event needs `key`, a test checkout key of its account, and the embedding `origin` its pin names; without one a test event answers 404. Rate limited per IP.';

export const checkoutRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Answers are keyed by names organisers choose; keep every key as it was sent.
    parseJsonKeepingEveryKey(app);
    const embedJs = loadAsset('embed.js', 'text/javascript; charset=utf-8');
    const pageJs = loadAsset('checkout-page.js', 'text/javascript; charset=utf-8');
    const pageCss = loadAsset('checkout.css', 'text/css; charset=utf-8');
    const assets: Assets = { js: `/embed/page.js?v=${pageJs.version}`, css: `/embed/page.css?v=${pageCss.version}` };
    const s = en;

    function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
      // A versioned URL never changes; the bare one is revalidated after five minutes.
      const pinned = (req.query as { v?: string }).v === asset.version;
      reply
        .header('etag', asset.etag)
        .header('cache-control', pinned ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff');
      if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.code(200).type(asset.type).send(asset.body);
    }

    /** HTML routes answer errors as a readable page, with the same statuses as JSON would. */
    function htmlErrorHandler(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
      let status = 500;
      let message: string = s.errorTitle;
      if (err instanceof AppError) {
        status = err.status;
        message = err.message;
        for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      } else if ((err as FastifyError).validation) {
        status = 400;
        message = err.message;
      } else {
        req.log.error({ err, reqId: req.id }, 'internal error');
      }
      const title = status === 404 ? s.notFoundTitle : s.errorTitle;
      const text = status === 404 ? s.notFound : status >= 500 ? s.errorTitle : message;
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', MESSAGE_CSP)
        .header('cache-control', 'no-store')
        .send(renderMessagePage(s, assets, title, text, status));
    }

    const html = (reply: FastifyReply, body: string, csp: string) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', csp)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(body);

    const assetRoute = (url: string, asset: Asset, summary: string, description: string) =>
      app.get(
        url,
        {
          config: { auth: { kind: 'public' } },
          schema: {
            tags: ['checkout'],
            summary,
            description,
            querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 40, description: 'Content version; a matching one is cached for a year.' })) }),
            response: {
              200: { description: 'The file.', content: { [asset.type.split(';')[0]!]: { schema: { type: 'string' } } } },
              304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' },
            } as never,
          },
        },
        async (req, reply) => sendAsset(req, reply, asset),
      );

    assetRoute(
      '/embed.js',
      embedJs,
      'The embed script for host pages',
      'Dependency-free. `[data-svc-event=<slug>]` gets an inline frame of the hosted page; `[data-svc-button=<slug>]` opens it in a `<dialog>` over the page, or in a separate window with `data-svc-mode="popup"`; `data-svc-key` (a pinned `pk_test_` key) shows test events against the sandbox. After a booking it dispatches `svc:registered` on `window` and on the element with `detail: { eventSlug, status }` (`confirmed`, or `pending` while awaiting approval). Messages are accepted only from the service’s origin and from the frame or window it made. Served with an ETag; `?v=<version>` pins a version.',
    );
    assetRoute('/embed/page.js', pageJs, 'The hosted page’s own script', 'Loaded by `/e/{slug}`; its URL carries its version.');
    assetRoute('/embed/page.css', pageCss, 'The hosted page’s style sheet', 'Loaded by `/e/{slug}`; its URL carries its version.');

    app.get(
      '/e/:slug',
      {
        config: { auth: { kind: 'public' } },
        errorHandler: htmlErrorHandler,
        schema: {
          tags: ['checkout'],
          summary: 'The hosted checkout page of an event',
          description: [
            'Server-rendered HTML: title, date, venue, description, sessions and tickets with live availability, the event’s questions, team members when maxTeamSize > 1, and a promo code. Registers through the same rules as the API (free, paid, approval, members-only tiers) and shows the confirmation, `awaiting approval`, sold-out and error states.',
            PAGE_AUTH,
            'Paid live bookings open Razorpay’s checkout.js (`key`, `order_id`, prefill); its handler’s three fields go to `POST /e/{slug}/payment`. Test events use the service’s own sandbox checkout stand-in and load no gateway script.',
            'Headers: `Content-Security-Policy` allows only this service’s script and style (and Razorpay’s checkout on live pages) and `frame-ancestors *`. No cookies. The page posts `{ ns: "svc", v: 1, type, … }` messages (`ready`, `resize { height }`, `registered { eventSlug, status }`, `close`) only to `origin`, never to `*`.',
          ].join('\n\n'),
          params: Slug,
          querystring: Type.Object({ ...Access, embed: Type.Optional(EmbedField) }),
          response: { 200: Html('The event page.'), ...htmlErrors([400, 403, 404, 429, 500]) } as never,
        },
      },
      async (req, reply) => {
        const access = await service.openPage(deps, req.params.slug, req.query.key, req.query.origin);
        const facts = await service.pageFacts(deps, access.event);
        const page = renderEventPage({
          strings: s,
          assets,
          facts,
          slug: access.event.slug,
          mode: access.event.mode,
          embed: req.query.embed ?? 'none',
          origin: access.origin,
          key: access.event.mode === 'test' ? (req.query.key ?? null) : null,
        });
        return html(reply, page, pageCsp(access.event.mode === 'live'));
      },
    );

    const TeamMember = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ minLength: 3, maxLength: 254 }) }, { additionalProperties: false });
    app.post(
      '/e/:slug/register',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['checkout'],
          summary: 'Register from the hosted page',
          description: [
            'The page’s own call: the same registration as `POST /api/v1/events/{id}/register` step 1 (or a free booking). Answers only the status, or the order to open the gateway’s checkout with; never an id or anyone’s personal data.',
            PAGE_AUTH,
            'Refusals are those of register: 400 (invalid input, promo code, `undeliverable_email`), 403 `membership_required` (a members-only tier without a valid membershipId), 409 `sold_out` / `tier_not_on_sale` / `event_not_published`, 502 gateway failure, 503 live payments not configured.',
          ].join('\n\n'),
          params: Slug,
          body: Type.Object(
            {
              ...Access,
              name: Type.String({ minLength: 1, maxLength: 200 }),
              email: Type.String({ minLength: 3, maxLength: 254 }),
              phone: Type.Optional(Type.String({ maxLength: 32 })),
              customFields: Type.Optional(CustomFieldAnswers),
              teamMembers: Type.Optional(Type.Array(TeamMember, { maxItems: 99 })),
              promoCode: Type.Optional(Type.String({ maxLength: 40 })),
              membershipId: Type.Optional(Type.String({ maxLength: 100, description: 'Needed for a members-only tier: the id of a membership in good standing with this email (403 `membership_required` otherwise).' })),
              ticketType: Type.Optional(Type.String({ maxLength: 80 })),
              subEventId: Type.Optional(Type.String({ maxLength: 10 })),
            },
            { additionalProperties: false },
          ),
          response: {
            201: Type.Union([
              Type.Object({ status: Type.Union([Type.Literal('confirmed'), Type.Literal('pending')], { description: '`pending`: awaiting the organiser’s approval.' }) }, { title: 'PageBooked' }),
              Type.Object(
                {
                  status: Type.Literal('payment_required'),
                  orderId: Type.String(),
                  amount: Type.Integer({ description: 'Paise.' }),
                  currency: Type.String(),
                  key: Type.String({ description: 'The gateway’s public key.' }),
                },
                { title: 'PageOrder', description: 'Open the gateway’s checkout with key and orderId; the booking is pending until paid.' },
              ),
            ]),
            402: E,
            403: E,
            404: E,
            409: E,
            502: E,
            503: E,
          },
        },
      },
      async (req, reply) => {
        const { key, origin, ...input } = req.body;
        const access = await service.openPage(deps, req.params.slug, key, origin);
        return reply.code(201).send(await service.registerFromPage(deps, access, input));
      },
    );

    const Handler = {
      razorpay_order_id: Type.String({ maxLength: 100 }),
      razorpay_payment_id: Type.String({ maxLength: 100 }),
      razorpay_signature: Type.String({ maxLength: 200 }),
    };
    app.post(
      '/e/:slug/payment',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['checkout'],
          summary: 'Confirm a paid booking with the gateway checkout’s handler fields',
          description: [
            'The three fields Razorpay’s checkout hands its handler. The booking is found by the order id; the signature must be the HMAC-SHA256 of `<stored order id>|<payment id>` under the key secret (402 `payment_not_verified` otherwise, and nothing changes). Then the payment is verified at the gateway and bound exactly as register step 2 does, with the same refusals (402, 409 `sold_out` with a refund, 502).',
            PAGE_AUTH,
          ].join('\n\n'),
          params: Slug,
          body: Type.Object({ ...Access, ...Handler }, { additionalProperties: false }),
          response: { 200: Type.Object({ status: Type.Literal('confirmed') }), 402: E, 403: E, 404: E, 409: E, 502: E, 503: E },
        },
      },
      async (req) => {
        const { key, origin, ...handler } = req.body;
        const access = await service.openPage(deps, req.params.slug, key, origin);
        return service.confirmFromPage(deps, access, handler);
      },
    );

    app.get(
      '/e/:slug/orders/:orderId',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['checkout'],
          summary: 'Where a booking from the hosted page stands, by its order',
          description: ['The page asks while the buyer pays in another tab, or after the gateway’s notification confirmed a booking whose checkout was interrupted. Only the status.', PAGE_AUTH].join('\n\n'),
          params: Type.Object({ slug: Slug.properties.slug, orderId: Type.String({ maxLength: 100 }) }),
          querystring: Type.Object(Access),
          response: {
            200: Type.Object({ status: Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('cancelled'), Type.Literal('refunded')]) }),
            403: E,
            404: E,
          },
        },
      },
      async (req) => service.orderStatus(deps, await service.openPage(deps, req.params.slug, req.query.key, req.query.origin), req.params.orderId),
    );

    app.post(
      '/e/:slug/sandbox-checkout',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['checkout'],
          summary: 'Test events: the sandbox’s stand-in for the gateway’s checkout',
          description: [
            'Pays (`success`) or fails (`failure`) the booking’s sandbox order and answers what Razorpay’s checkout hands its handler, signed with the sandbox’s own secret; the page then confirms through `POST /e/{slug}/payment` like a live one. Test events only (404 otherwise).',
            PAGE_AUTH,
          ].join('\n\n'),
          params: Slug,
          body: Type.Object(
            { ...Access, orderId: Type.String({ maxLength: 100 }), outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]) },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Union([Type.Object(Handler, { title: 'SandboxHandlerFields' }), Type.Object({ failed: Type.Literal(true) }, { title: 'SandboxPaymentFailed' })]),
            403: E,
            404: E,
          },
        },
      },
      async (req) => {
        const access = await service.openPage(deps, req.params.slug, req.body.key, req.body.origin);
        return service.sandboxCheckout(deps, access, req.body.orderId, req.body.outcome);
      },
    );

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
          querystring: Type.Object({ order: Type.String({ maxLength: 100, description: 'The booking’s gateway order id.' }) }),
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
      form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      form.post(
        '/e/:slug/callback',
        {
          config: { auth: { kind: 'public' } },
          errorHandler: htmlErrorHandler,
          schema: {
            tags: ['checkout'],
            summary: 'Live events: where the gateway’s checkout returns after a redirect',
            description:
              'Razorpay posts `razorpay_payment_id`, `razorpay_order_id` and `razorpay_signature` (or `error[…]` fields) as a form. The booking is confirmed exactly as `POST /e/{slug}/payment` does, and an HTML page says what happened.',
            consumes: ['application/x-www-form-urlencoded'],
            params: Slug,
            body: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), { maxProperties: 30 }),
            response: { 200: Html('What happened to the payment.'), ...htmlErrors([400, 402, 404, 409, 413, 415, 429, 500, 502, 503]) } as never,
          },
        },
        async (req, reply) => {
          const access = await service.openPage(deps, (req.params as { slug: string }).slug, undefined, undefined);
          const b = req.body as Record<string, string | undefined>;
          const orderId = b.razorpay_order_id;
          const paymentId = b.razorpay_payment_id;
          const signature = b.razorpay_signature;
          if (!orderId || !paymentId || !signature) {
            const reason = b['error[description]'] ?? '';
            return html(reply.code(200), renderMessagePage(s, assets, s.script.paymentPendingTitle, `${s.script.paymentPending} ${reason}`.trim()), MESSAGE_CSP);
          }
          await service.confirmFromPage(deps, access, { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature });
          return html(reply, renderMessagePage(s, assets, s.script.confirmedTitle, s.callbackConfirmed), MESSAGE_CSP);
        },
      );
    });
  };
