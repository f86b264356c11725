// The dashboard's CSV downloads (docs/decisions/17-the-organisers-office.md): the same files as the API's exports, for the
// signed-in organiser in the mode the dashboard shows (the session cookie; GET only, they
// change nothing). A refusal (an unknown event, a day that does not exist) is the
// dashboard's error page.
import type { FastifyInstance } from 'fastify';
import { sendCsv } from '../../modules/exports/csv-reply.js';
import * as exportsService from '../../modules/exports/exports.service.js';
import { gstDocumentsCsv } from '../../modules/exports/gst-documents.service.js';
import { PAGE, type IdParams, type PageContext } from '../page-context.js';

const STATUSES = new Set(['pending', 'confirmed', 'cancelled', 'refunded']);
/** A form's field left empty (or sent twice) means not given; a long one is cut, as the list pages cut theirs. */
const given = (value: unknown, max = 100) =>
  typeof value !== 'string' || value === '' ? undefined : value.slice(0, max);

export function exportPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, org } = ctx;
  const exportDeps: exportsService.ExportDeps = {
    db: deps.db,
    reads: deps.reads,
    clock: deps.clock,
    ledger: deps.payoutDeps,
  };

  type ListQuery = { q?: string; status?: string; track?: string; tier?: string; checkin?: string };
  app.get<IdParams & { Querystring: ListQuery }>(
    '/dashboard/events/:id/registrations/export',
    PAGE,
    async (req, reply) => {
      const status = STATUSES.has(req.query.status ?? '') ? (req.query.status as 'confirmed') : undefined;
      // The list's track, ticket and check-in filters, as the list page reads them ("no track" is not an export filter).
      const track = given(req.query.track, 6);
      const checkedIn =
        req.query.checkin === 'in'
          ? ('true' as const)
          : req.query.checkin === 'out'
            ? ('false' as const)
            : undefined;
      const filter = {
        status,
        q: given(req.query.q, 200),
        ticketType: given(req.query.tier),
        subEventId: track !== undefined && /^\d+$/.test(track) ? track : undefined,
        checkedIn,
      };
      return sendCsv(
        reply,
        await exportsService.registrationsCsv(exportDeps, org(req), req.params.id, filter),
      );
    },
  );

  app.get<{ Querystring: { planId?: string } }>('/dashboard/memberships/export', PAGE, async (req, reply) =>
    sendCsv(
      reply,
      await exportsService.membersCsv(exportDeps, org(req), { planId: given(req.query.planId) }),
    ),
  );

  app.get<{ Querystring: { from?: string; to?: string } }>(
    '/dashboard/money/ledger/export',
    PAGE,
    async (req, reply) =>
      sendCsv(
        reply,
        await exportsService.ledgerCsv(exportDeps, org(req), {
          from: given(req.query.from),
          to: given(req.query.to),
        }),
      ),
  );

  app.get<{ Querystring: { from?: string; to?: string } }>(
    '/dashboard/account/gst/export',
    PAGE,
    async (req, reply) =>
      sendCsv(
        reply,
        await gstDocumentsCsv(exportDeps, org(req), {
          from: given(req.query.from),
          to: given(req.query.to),
        }),
      ),
  );
}
