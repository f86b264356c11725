// The Test inbox (docs/decisions/28-a-persons-day.md): the account's test-mode mails as they would be sent.
// Each route reads only the signed-in account's own mails; another account's answers 404.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors.js';
import * as sandboxMail from '../../modules/mail/sandbox-mail.js';
import { framedMailHtml, inboxPage, mailPage } from '../views/test-inbox.js';
import { PAGE, PAGE_SIZE, type PageContext } from '../page-context.js';

type MailParams = { Params: { mid: string } };
type FileParams = { Params: { mid: string; index: string } };

/**
 * A mail's HTML body, framed only by the dashboard's own pages: no script at all, the
 * mail's own inline styles, images only as data URLs, and the CSP sandbox (an opaque
 * origin, so the body cannot read the dashboard) with popups for its links.
 */
export const MAIL_FRAME_CSP = [
  "default-src 'none'",
  'img-src data:',
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-popups allow-popups-to-escape-sandbox',
].join('; ');

/** A downloaded attachment runs nothing, even if a browser were to render it. */
export const MAIL_FILE_CSP = "default-src 'none'; sandbox";

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Dashboard routes that answer a test mail's body or file, with their own headers instead of the page ones. */
    dashboardMail?: 'body' | 'file';
  }
}

const mailNotFound = () => notFound('no such test mail in this account', 'not_found');

export function testInboxPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show } = ctx;

  app.get<{ Querystring: { after?: string } }>('/dashboard/test-inbox', PAGE, async (req, reply) =>
    show(req, reply, 'test-inbox', 'Test inbox', async (v) => {
      const after =
        typeof req.query.after === 'string' && req.query.after !== ''
          ? req.query.after.slice(0, 600)
          : undefined;
      const page = await sandboxMail.pageKeptEmails(deps.db, v.s.userId, {
        limit: PAGE_SIZE,
        startingAfter: after,
      });
      return inboxPage(page.items, page.count, { next: page.nextCursor, first: after === undefined });
    }),
  );

  app.get<MailParams>('/dashboard/test-inbox/:mid', PAGE, async (req, reply) =>
    show(req, reply, 'test-inbox', 'Test mail', async (v) => {
      const mail = await sandboxMail.keptEmail(deps.db, v.s.userId, req.params.mid);
      if (!mail) throw mailNotFound();
      return { title: mail.subject, body: mailPage(mail) };
    }),
  );

  app.get<MailParams>(
    '/dashboard/test-inbox/:mid/body',
    { ...PAGE, config: { ...PAGE.config, dashboardMail: 'body' } },
    async (req, reply) => {
      const accountId = ctx.org(req).userId;
      const mail = await sandboxMail.keptEmail(deps.db, accountId, req.params.mid);
      if (!mail || mail.html === null) throw mailNotFound();
      const inline = await sandboxMail.inlineFiles(deps.db, accountId, mail.id);
      return reply.type('text/html; charset=utf-8').send(framedMailHtml(mail.html, inline));
    },
  );

  app.get<FileParams>(
    '/dashboard/test-inbox/:mid/files/:index',
    { ...PAGE, config: { ...PAGE.config, dashboardMail: 'file' } },
    async (req, reply) => {
      const index = /^\d{1,4}$/.test(req.params.index) ? Number(req.params.index) : -1;
      const file =
        index < 0
          ? undefined
          : await sandboxMail.keptFile(deps.db, ctx.org(req).userId, req.params.mid, index);
      if (!file) throw mailNotFound();
      // The name as the mail gives it, in the RFC 6266 form for any character; an ASCII fallback beside it.
      const ascii = file.filename.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .type(file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        )
        .send(file.content);
    },
  );
}
