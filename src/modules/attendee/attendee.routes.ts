// The attendee's own page, /t/{token}: the ticket, and where the organiser's policy allows,
// transfer and cancellation as plain HTML forms. The token in the path is the credential
// (no cookie); a posted form must come from this page: its Origin (or, without one,
// Sec-Fetch-Site: same-origin) must be the service's own, and it must carry the page's
// form token for that action. No script and no inline style (CSP). One operation per file
// under routes/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Operation } from '../../http/operation.js';
import { loadPageStyle, pageStyleUrl } from '../checkout/assets.js';
import type { AttendeePageDeps, AttendeeRouteDeps } from './routes/attendee-page.js';
import { attendeeCancel } from './routes/attendee-cancel.js';
import { attendeeTransfer } from './routes/attendee-transfer.js';
import { getAttendeeDocument } from './routes/get-attendee-document.js';
import { openAttendeePage } from './routes/open-attendee-page.js';

export type { AttendeePageDeps } from './routes/attendee-page.js';

const pageOperations: readonly Operation<AttendeeRouteDeps>[] = [openAttendeePage, getAttendeeDocument];
/** The two forms: only they parse a posted form. */
const formOperations: readonly Operation<AttendeeRouteDeps>[] = [attendeeTransfer, attendeeCancel];

/** The attendee's page and its two forms; the page links the hosted page's style sheet (/embed/page.css). */
export const attendeeRoutes =
  (deps: AttendeePageDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const routeDeps: AttendeeRouteDeps = { ...deps, css: pageStyleUrl(loadPageStyle()) };
    for (const operation of pageOperations) operation(app, routeDeps);
    await app.register(async (form) => {
      form.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 8 * 1024 },
        (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );
      for (const operation of formOperations) operation(form, routeDeps);
    });
  };
