// The attendee's own page, /t/{token}: the ticket, and where the organiser's policy allows,
// transfer and cancellation as plain HTML forms. The token in the path is the credential
// (no cookie); a posted form must come from this page: its Origin (or, without one,
// Sec-Fetch-Site: same-origin) must be the service's own, and it must carry the page's
// form token for that action. No script and no inline style (CSP).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, badRequest, forbidden } from '../../lib/errors.js';
import {
  cancelTicket,
  formTokenMatches,
  openTicket,
  ticketDocumentPdf,
  ticketDocuments,
  transferTicket,
  type AttendeeDeps,
  type Change,
} from './attendee.service.js';
import { ATTENDEE_CSP, renderDonePage, renderTicketPage } from './attendee.html.js';
import { loadPageStyle, pageStyleUrl } from '../checkout/assets.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const Html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
const errorPages = (statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Html('An HTML page naming the problem.')]));
const Token = Type.Object({
  token: Type.String({
    maxLength: 120,
    description: 'The attendee token from the ticket mail: `<registration id>.<mac>`.',
  }),
});
const AUTH =
  'No key: the token in the path is the credential (an HMAC over the registration and its current ticket id; nothing stored). A transfer reissues the ticket id, which retires every earlier link. Rate limited per IP.';
const FORM_RULES =
  'A form from the page itself: 403 `cross_origin_refused` unless `Origin` is the service’s own (or, without an `Origin`, `Sec-Fetch-Site: same-origin`), and 403 `csrf_refused` without the page’s form token for this action. Refusals by the policy: 409 `self_service_not_allowed` (the organiser does not allow it), `self_service_closed` (past the cutoff, `cutoffHours` before the start), `not_confirmed`.';

export interface AttendeePageDeps extends AttendeeDeps {
  baseUrl: string;
  /** Wallet buttons (Apple, Google) for this ticket, when configured: list items, or ''. */
  walletLinks?: (ticket: { registrationId: string; token: string }) => string;
}

/** The attendee's page and its two forms; the page links the hosted page's style sheet (/embed/page.css). */
export const attendeeRoutes =
  (deps: AttendeePageDeps): FastifyPluginAsyncTypebox =>
  (app) =>
    attendeePages(app, { ...deps, css: pageStyleUrl(loadPageStyle()) });

async function attendeePages(app: App, deps: AttendeePageDeps & { css: string }): Promise<void> {
  const send = (reply: FastifyReply, body: string) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', ATTENDEE_CSP)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'same-origin')
      .header('x-content-type-options', 'nosniff')
      .send(body);

  function errorPage(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
    let status = 500;
    let message = 'Something went wrong. Try again in a moment.';
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
    return send(
      reply.code(status),
      renderDonePage(deps.css, status === 404 ? 'Link not valid' : 'Not done', [message]),
    );
  }

  app.get(
    '/t/:token',
    {
      config: { auth: { kind: 'public' } },
      errorHandler: errorPage,
      schema: {
        tags: ['attendee'],
        summary:
          'The attendee’s own page: the ticket, its QR, calendar link, and the changes the policy allows',
        description: [
          'Server-rendered HTML without script. Shows the booking, the QR of the current ticket id, an “Add to Google Calendar” link, the wallet links where they exist, links to the booking’s tax invoice and credit notes (PDFs, authorised by the same token; none for a transferred ticket), and, while the event’s `selfService` policy allows and before its cutoff, a transfer form and a cancellation form naming the refund to the paisa.',
          AUTH,
        ].join('\n\n'),
        params: Token,
        response: { 200: Html('The ticket page.'), ...errorPages([400, 404, 429, 500]) } as never,
      },
    },
    async (req, reply) => {
      const ticket = await openTicket(deps, req.params.token);
      const ref = { registrationId: ticket.reg.id, token: req.params.token };
      const documents = await ticketDocuments(deps, ticket);
      return send(
        reply,
        renderTicketPage({
          css: deps.css,
          ticket,
          token: req.params.token,
          secretsKey: deps.secretsKey,
          walletLinks: deps.walletLinks?.(ref) ?? '',
          documents,
        }),
      );
    },
  );

  app.get(
    '/t/:token/documents/:number',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        tags: ['attendee'],
        summary: 'A tax invoice, bill of supply or credit note of the booking, as a PDF',
        description: [
          'The documents the ticket page links (`number` as the page gives it): the booking’s tax invoice or bill of supply and each credit note, as the A4 PDF the organiser’s API serves. 404 for a number that is not this booking’s, and for every document of a transferred ticket (they were issued to the giver).',
          AUTH,
        ].join('\n\n'),
        params: Type.Object({
          token: Token.properties.token,
          number: Type.String({
            maxLength: 40,
            description: 'The document’s number, e.g. `TIXI2627-000001`.',
          }),
        }),
        response: {
          200: {
            description: 'The document.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          404: Type.Ref('Error'),
        } as never,
      },
    },
    async (req, reply) => {
      const { token, number } = req.params as { token: string; number: string };
      const file = await ticketDocumentPdf(deps, token, number);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.pdf);
    },
  );

  const ownOrigins = (req: FastifyRequest) => [new URL(deps.baseUrl).origin, `${req.protocol}://${req.host}`];
  function assertFromPage(
    req: FastifyRequest,
    token: string,
    change: Change,
    csrf: string | undefined,
  ): void {
    const origin = req.headers.origin;
    // `Origin: null` (a privacy setting or an opaque origin) says nothing: then the browser's Sec-Fetch-Site decides.
    const fromPage =
      typeof origin === 'string' && origin !== '' && origin !== 'null'
        ? ownOrigins(req).includes(origin)
        : req.headers['sec-fetch-site'] === 'same-origin';
    if (!fromPage)
      throw forbidden('cross_origin_refused', 'this form must be sent from the ticket page itself');
    if (!formTokenMatches(deps.secretsKey, token, change, csrf))
      throw forbidden(
        'csrf_refused',
        'this form did not come from the ticket page; open the page again and retry',
      );
  }

  await app.register(async (form) => {
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const Form = (fields: Record<string, ReturnType<typeof Type.String>>) =>
      Type.Object({ csrf: Type.String({ maxLength: 100 }), ...fields }, { additionalProperties: false });
    const common = (summary: string, description: string, body: ReturnType<typeof Form>) => ({
      bodyLimit: 8 * 1024,
      config: { auth: { kind: 'public' as const } },
      errorHandler: errorPage,
      schema: {
        tags: ['attendee'],
        summary,
        description: [description, AUTH, FORM_RULES].join('\n\n'),
        consumes: ['application/x-www-form-urlencoded'],
        params: Token,
        body,
        response: {
          200: Html('What was done.'),
          ...errorPages([400, 403, 404, 409, 413, 415, 429, 500, 502, 503]),
        } as never,
      },
    });

    form.post(
      '/t/:token/transfer',
      common(
        'Transfer the ticket to another person',
        'The organiser’s transfer, with the attendee as actor: a new ticket id (the old QR is then refused at the door with `transferred`), the ticket mail to the new holder, and this link retired (the new holder gets their own).',
        Form({
          name: Type.String({ minLength: 1, maxLength: 200 }),
          email: Type.String({ minLength: 3, maxLength: 254 }),
        }),
      ),
      async (req, reply) => {
        const { token } = req.params as { token: string };
        const b = req.body as { csrf: string; name: string; email: string };
        assertFromPage(req, token, 'transfer', b.csrf);
        const reg = await transferTicket(deps, token, { name: b.name, email: b.email });
        return send(
          reply,
          renderDonePage(deps.css, 'Ticket transferred', [
            `The ticket now belongs to ${reg.name}, who gets it by mail.`,
            'This page and your old QR code no longer work.',
          ]),
        );
      },
    );

    form.post(
      '/t/:token/cancel',
      common(
        'Cancel the booking under the event’s policy',
        'The organiser’s cancellation, with the attendee as actor: the refund the policy names (`full`, `none`, or all but `feePercent`, rounded half up to the paisa) at the gateway and in the ledger, the seat freed and offered to the waitlist. `confirm=yes` is required.',
        Form({ confirm: Type.String({ maxLength: 10 }) }),
      ),
      async (req, reply) => {
        const { token } = req.params as { token: string };
        const b = req.body as { csrf: string; confirm?: string };
        assertFromPage(req, token, 'cancel', b.csrf);
        if (b.confirm !== 'yes')
          throw badRequest('invalid_request', 'tick “Yes, cancel my booking” to cancel');
        const { refundPaise } = await cancelTicket(deps, token);
        const refund =
          refundPaise > 0
            ? `${new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(refundPaise / 100)} is on its way back to you.`
            : 'Nothing is refunded.';
        return send(
          reply,
          renderDonePage(deps.css, 'Booking cancelled', ['Your booking is cancelled.', refund]),
        );
      },
    );
  });
}
