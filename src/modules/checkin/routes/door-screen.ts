// What the door screen's operations share: its HTML answers in the document, its error page
// and its headers.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../../../http/error-handler.js';
import { doorErrorPage } from '../door-page.js';

export const Html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
export const htmlErrors = (statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, Html('An HTML page naming the problem.')]));

/** Errors of the door screen answer as a page. */
export const errorHandler = async (err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
  const e = describeError(err) ?? { status: 500, code: 'internal', message: 'internal error', headers: {} };
  if (e.status >= 500) req.log.error({ err, reqId: req.id }, 'door page error');
  for (const [h, v] of Object.entries(e.headers)) reply.header(h, v);
  return pageHeaders(reply)
    .code(e.status)
    .type('text/html; charset=utf-8')
    .send(doorErrorPage(e.status >= 500 ? 'Something went wrong on our side. Please try again.' : e.message));
};

// The dashboard's policy, with the camera's stream allowed to play; the token in the
// URL never leaves in a Referer.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('permissions-policy', 'camera=(self), microphone=()')
    .header('cache-control', 'no-store');
}
