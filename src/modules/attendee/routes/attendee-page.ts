// What the attendee page's operations share: their deps, the HTML answers in the document and
// the page's headers and error page, the token in the path, and the forms' own checks.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OperationExamples } from '../../../http/examples.js';
import { AppError, forbidden } from '../../../lib/errors.js';
import { formTokenMatches, type AttendeeDeps, type Change } from '../attendee.service.js';
import { ATTENDEE_CSP, renderDonePage } from '../attendee.html.js';

export interface AttendeePageDeps extends AttendeeDeps {
  baseUrl: string;
  /** Wallet buttons (Apple, Google) for this ticket, when configured: list items, or ''. */
  walletLinks?: (ticket: { registrationId: string; token: string }) => string;
}

/** What the operations get: the deps and the page's style sheet address. */
export type AttendeeRouteDeps = AttendeePageDeps & { css: string };

export const Html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
export const errorPages = (statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Html('An HTML page naming the problem.')]));
export const Token = Type.Object({
  token: Type.String({
    maxLength: 120,
    description: 'The attendee token from the ticket mail: `<registration id>.<mac>`.',
  }),
});
export const AUTH =
  'No key: the token in the path is the credential (an HMAC over the registration and its current ticket id; nothing stored). A transfer reissues the ticket id, which retires every earlier link. Rate limited per IP.';
const FORM_RULES =
  'A form from the page itself: 403 `cross_origin_refused` unless `Origin` is the service’s own (or, without an `Origin`, `Sec-Fetch-Site: same-origin`), and 403 `csrf_refused` without the page’s form token for this action. Refusals by the policy: 409 `self_service_not_allowed` (the organiser does not allow it), `self_service_closed` (past the cutoff, `cutoffHours` before the start), `not_confirmed`.';

export const send = (reply: FastifyReply, body: string) =>
  reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', ATTENDEE_CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .send(body);

/** The page's errors, as a page. */
export const errorPage =
  (deps: AttendeeRouteDeps) => (err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
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
  };

const ownOrigins = (deps: AttendeeRouteDeps, req: FastifyRequest) => [
  new URL(deps.baseUrl).origin,
  `${req.protocol}://${req.host}`,
];

/** A posted form must come from the page: its origin, and its form token for this action. */
export function assertFromPage(
  deps: AttendeeRouteDeps,
  req: FastifyRequest,
  token: string,
  change: Change,
  csrf: string | undefined,
): void {
  const origin = req.headers.origin;
  // `Origin: null` (a privacy setting or an opaque origin) says nothing: then the browser's Sec-Fetch-Site decides.
  const fromPage =
    typeof origin === 'string' && origin !== '' && origin !== 'null'
      ? ownOrigins(deps, req).includes(origin)
      : req.headers['sec-fetch-site'] === 'same-origin';
  if (!fromPage)
    throw forbidden('cross_origin_refused', 'this form must be sent from the ticket page itself');
  if (!formTokenMatches(deps.secretsKey, token, change, csrf))
    throw forbidden(
      'csrf_refused',
      'this form did not come from the ticket page; open the page again and retry',
    );
}

const Form = (fields: Record<string, ReturnType<typeof Type.String>>) =>
  Type.Object({ csrf: Type.String({ maxLength: 100 }), ...fields }, { additionalProperties: false });

/** What a form operation says of itself. */
interface FormDoc {
  operationId: string;
  summary: string;
  description: string;
  fields: Parameters<typeof Form>[0];
  examples: OperationExamples;
}

/** A form operation's options: the form's limits, error page and schema. */
export const formRoute = (
  deps: AttendeeRouteDeps,
  { operationId, summary, description, fields, examples }: FormDoc,
) => ({
  bodyLimit: 8 * 1024,
  config: { auth: { kind: 'public' as const }, examples },
  errorHandler: errorPage(deps),
  schema: {
    operationId,
    tags: ['attendee'],
    summary,
    description: [description, AUTH, FORM_RULES].join('\n\n'),
    consumes: ['application/x-www-form-urlencoded'],
    params: Token,
    body: Form(fields),
    response: {
      200: Html('What was done.'),
      ...errorPages([400, 403, 404, 409, 413, 415, 429, 500, 502, 503]),
    } as never,
  },
});
