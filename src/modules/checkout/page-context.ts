// What the hosted page's routes share: the content security policies, the schema pieces
// every page route names, and rendering HTML (pages and error pages) in the page's strings.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { CallSource, CheckoutDeps } from './checkout.service.js';
import { AppError } from '../../lib/errors.js';
import { renderMessagePage, type Assets, type BackLink } from './layout.html.js';
import { en } from './strings.js';

// checkout.js itself comes only from its own origin; the modal it builds frames, calls and
// draws from Razorpay's hosts and styles itself inline, so live pages allow exactly that.
const RAZORPAY_SCRIPT = 'https://checkout.razorpay.com';
const RAZORPAY_HOSTS = 'https://*.razorpay.com';

/**
 * Our pages load only our own script and style; live pages add Razorpay's checkout. A
 * page opened with a pinned key may be framed by that origin only; others by anyone.
 */
export function pageCsp(live: boolean, frameAncestor: string | null = null): string {
  return [
    "default-src 'none'",
    `script-src 'self'${live ? ` ${RAZORPAY_SCRIPT}` : ''}`,
    `style-src 'self'${live ? " 'unsafe-inline'" : ''}`,
    `img-src 'self' data:${live ? ` ${RAZORPAY_HOSTS}` : ''}`,
    `connect-src 'self'${live ? ` ${RAZORPAY_HOSTS}` : ''}`,
    ...(live ? [`frame-src ${RAZORPAY_HOSTS}`] : []),
    `form-action 'self'${live ? ` ${RAZORPAY_HOSTS}` : ''}`,
    "base-uri 'none'",
    `frame-ancestors ${frameAncestor ?? '*'}`,
  ].join('; ');
}

const gzipAsync = promisify(gzip);
/** Pages this large or larger go gzipped (only a big seat map is). */
const GZIP_FROM = 64 * 1024;

export const MESSAGE_CSP =
  "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

export const Html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
export const htmlErrors = (statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      Html(
        s === 404
          ? 'No such page: an unknown slug, an unpublished live event, or a test event without its key.'
          : 'An HTML page naming the problem.',
      ),
    ]),
  );
export const E = Type.Ref('Error');

export const Slug = Type.Object({ slug: Type.String({ maxLength: 80, description: 'The event’s slug.' }) });
const KeyField = Type.String({
  maxLength: 100,
  description:
    'Test events only: a `pk_test_` checkout key of the event’s account (the widget’s `data-svc-key`).',
});
const OriginField = Type.String({
  maxLength: 300,
  description:
    'The embedding page’s origin as embed.js declares it: only where the page posts its messages when the key has no pin (a pinned key’s page posts to its pin). It grants nothing: anyone can write it.',
});
export const EMBEDS = ['inline', 'overlay', 'popup', 'none'] as const;
export const EmbedField = Type.Union(
  [Type.Literal('inline'), Type.Literal('overlay'), Type.Literal('popup'), Type.Literal('none')],
  {
    description: 'How embed.js shows the page; `none` (default) is a page of its own.',
  },
);
const OfferField = Type.String({
  maxLength: 120,
  description:
    'A waitlist offer’s token (the offer mail’s link): the page books the one seat it holds, sold out or not; it also opens a test event’s page without `key`.',
});
const PreviewField = Type.String({
  maxLength: 160,
  description:
    'The organiser’s preview link (the dashboard’s “Open the preview”): opens a test event’s page, or a live draft’s, for 24 hours, with no key or origin; a test event’s preview takes test bookings. 403 `preview_invalid` for a token that does not verify for this event, 403 `preview_expired` once its day is over. Only the service’s own pages may frame a preview or make its calls.',
});
export const Access = {
  key: Type.Optional(KeyField),
  origin: Type.Optional(OriginField),
  offer: Type.Optional(OfferField),
  preview: Type.Optional(PreviewField),
};

export const PAGE_AUTH =
  'No credentials: a published live event is public. A test event needs `key`, a test checkout key of its account, or `preview`, its organiser’s preview link; without either a test event answers 404. Rate limited per IP.';

/** What the page's JSON calls add to PAGE_AUTH. */
export const CALL_AUTH =
  'With a key pinned to an origin (`allowedOrigin`), the call is refused (403 `origin_not_allowed`) unless its `Origin` header is the page’s own (the service’s origin) or the pinned origin, or, where a browser sends no `Origin` or `Origin: null` (as it does for a form the page posts), `Sec-Fetch-Site` is `same-origin`. The `origin` field grants nothing.';

/** Who made a page call, from the headers a browser sets and a page cannot. */
export function callSource(req: FastifyRequest): CallSource {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  return {
    origin: typeof origin === 'string' && origin !== '' ? origin : undefined,
    fetchSite: typeof site === 'string' ? site : undefined,
    ownOrigin: `${req.protocol}://${req.host}`,
  };
}

export type CheckoutContext = ReturnType<typeof checkoutContext>;

export function checkoutContext(deps: CheckoutDeps, assets: Assets) {
  const s = en;

  /**
   * HTML routes answer errors as a readable page, with the same statuses as JSON would;
   * `back`, where the page was reached from another (a form inside the widget), links back to it.
   */
  function htmlErrorHandler(
    err: FastifyError | Error,
    req: FastifyRequest,
    reply: FastifyReply,
    back?: BackLink,
  ) {
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
      .send(renderMessagePage(s, assets, title, text, status, back));
  }

  /**
   * Sends a page. With the request's `Accept-Encoding`, a page of GZIP_FROM or more (a seat map of
   * thousands of seats) goes gzipped to a browser that takes it, compressed off the event loop.
   */
  const html = async (reply: FastifyReply, body: string, csp: string, acceptEncoding?: string) => {
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', csp)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff');
    if (acceptEncoding === undefined || body.length < GZIP_FROM || !/\bgzip\b/.test(acceptEncoding))
      return reply.send(body);
    return reply
      .header('content-encoding', 'gzip')
      .header('vary', 'accept-encoding')
      .send(await gzipAsync(body));
  };

  return { deps, assets, s, htmlErrorHandler, html };
}
