import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { paiseToRupees } from '../../lib/money.js';
import * as events from '../events/events.service.js';
import type { GstDocument } from './document.js';
import { renderDocumentHtml } from './document.view.js';
import { renderDocumentPdf } from './document.pdf.js';
import * as gst from './gst.service.js';
import { DocumentSchema, Gstr1Supplier, Settings, SettingsBody } from './gst.schemas.js';

const E = Type.Ref('Error');
export function presentDocument(d: GstDocument) {
  const l = d.line;
  return {
    ...d,
    supplier: { legalName: d.supplier.legalName, address: d.supplier.address, gstin: d.supplier.gstin, state: d.supplier.stateCode },
    recipient: { name: d.recipient.name, email: d.recipient.email, gstin: d.recipient.gstin, address: d.recipient.address, state: d.recipient.stateCode },
    line: {
      description: l.description,
      sac: l.sac,
      quantity: l.quantity,
      rate: l.ratePercent,
      total: paiseToRupees(l.totalPaise),
      taxableValue: paiseToRupees(l.taxablePaise),
      cgst: paiseToRupees(l.cgstPaise),
      sgst: paiseToRupees(l.sgstPaise),
      utgst: paiseToRupees(l.utgstPaise),
      igst: paiseToRupees(l.igstPaise),
    },
  };
}

type Format = 'json' | 'pdf' | 'html';
const MEDIA: Record<Format, string> = { json: 'application/json', pdf: 'application/pdf', html: 'text/html' };

/** The format an Accept header prefers among ours (the highest q; JSON on a tie or without one). */
export function negotiate(accept: string | undefined): Format {
  if (!accept) return 'json';
  let best: { format: Format; q: number } = { format: 'json', q: -1 };
  for (const format of ['json', 'pdf', 'html'] as const) {
    const [type] = MEDIA[format].split('/');
    let q = -1;
    let specificity = -1;
    for (const part of accept.split(',').slice(0, 50)) {
      const [range = '', ...params] = part.trim().toLowerCase().split(';');
      const s = range === MEDIA[format] ? 2 : range === `${type}/*` ? 1 : range === '*/*' ? 0 : -1;
      if (s <= specificity) continue;
      const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const value = qp === undefined ? 1 : Number(qp.slice(2));
      specificity = s;
      q = Number.isFinite(value) ? value : 0;
    }
    if (q > best.q) best = { format, q };
  }
  return best.q <= 0 ? 'json' : best.format;
}

const FORMAT_DESCRIPTION =
  'The format is `?format=json|pdf|html` when given, otherwise chosen from `Accept` (`application/pdf`, `text/html`, `application/json`; the highest q wins, JSON on a tie or without the header). JSON answers `{ success, data }` with amounts in rupees; the PDF (A4, one page) and the HTML page show the same fields. Test-mode documents say "TEST MODE - not a tax document".';

async function sendDocument(req: FastifyRequest, reply: FastifyReply, doc: GstDocument, format: Format | undefined) {
  const chosen = format ?? negotiate(req.headers.accept);
  reply.header('vary', 'Accept').header('cache-control', 'private, no-store');
  if (chosen === 'pdf') {
    const pdf = await renderDocumentPdf(doc);
    return reply.type('application/pdf').header('content-disposition', `inline; filename="${doc.number}.pdf"`).send(pdf);
  }
  if (chosen === 'html') {
    return reply.type('text/html; charset=utf-8').header('content-security-policy', "default-src 'none'; frame-ancestors 'none'").send(renderDocumentHtml(doc));
  }
  return reply.type('application/json; charset=utf-8').send({ success: true as const, data: presentDocument(doc) });
}

export const gstRoutes =
  (deps: { db: Kysely<Database>; clock: Clock }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/gst/settings',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['gst'],
          summary: 'The account’s GST settings in the key’s mode',
          description: 'Unset settings read as `registered: false` with null fields.',
          response: { 200: Type.Object({ success: Type.Literal(true), data: Settings }) },
        },
      },
      async (req) => ({ success: true as const, data: await gst.getSettings(deps.db, keyPrincipal(req)) }),
    );

    app.put(
      '/api/v1/gst/settings',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['gst'],
          summary: 'Set the account’s GST settings in the key’s mode',
          description: [
            'Replaces the settings of the key’s account and mode (test and live keep their own, as webhooks do, so test mode can be tried with any GSTIN). With a `gstin`, every paid booking confirmed from then on gets a tax invoice (a bill of supply when exempt) from this account’s series; without one, none. `legalName` and `address` are the supplier’s on every document.',
            '`gstin` is checked for its shape, its state code and its check character: 400 `invalid_gstin`. `state` is the GSTIN’s (given or not; another is 400 `invalid_state`); without a GSTIN it may be any GST state code. `seriesPrefix` (default `TIX`) starts every number: a tax invoice is `<prefix>I<yyyy>-<seq>`, a bill of supply `<prefix>B…`, a credit note `<prefix>C…`, e.g. `TIXI2627-000001`; a new financial year starts each series at 1. Changing the prefix starts new series; a GSTIN used by an event (its `supplierGstin`) has series of its own.',
            'Not tax advice: confirm your settings and each event’s tax category with your tax adviser.',
          ].join('\n\n'),
          body: SettingsBody,
          response: { 200: Type.Object({ success: Type.Literal(true), data: Settings }) },
        },
      },
      async (req) => ({ success: true as const, data: await gst.putSettings(deps, keyPrincipal(req), req.body) }),
    );

    const Params = Type.Object({ id: Type.String({ maxLength: 100 }), registrationId: Type.String({ maxLength: 100 }) });
    const FormatField = Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf'), Type.Literal('html')]));
    const FormatQuery = Type.Object({ format: FormatField }, { additionalProperties: false });
    const CreditNoteQuery = Type.Object({ format: FormatField, number: Type.Optional(Type.String({ maxLength: 20, description: 'The credit note’s number; the latest when omitted.' })) }, { additionalProperties: false });
    const documentAnswer = {
      description: 'The document, in the format asked for.',
      content: {
        'application/json': { schema: Type.Object({ success: Type.Literal(true), data: DocumentSchema }) },
        'application/pdf': { schema: Type.String({ contentMediaType: 'application/pdf', description: 'An A4 PDF.' }) },
        'text/html': { schema: Type.String({ description: 'A self-contained HTML page (no script, no style).' }) },
      },
    };
    const documentRoute = (path: string, role: 'sale' | 'refund', summary: string, description: string) =>
      app.get(
        `/api/v1/events/:id/registrations/:registrationId/${path}`,
        {
          config: { auth: FULL_ONLY },
          schema: {
            tags: ['gst'],
            summary,
            description: `${description}\n\n${FORMAT_DESCRIPTION}`,
            params: Params,
            querystring: role === 'sale' ? FormatQuery : CreditNoteQuery,
            response: { 200: documentAnswer, 404: E },
          },
        },
        async (req, reply) => {
          const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
          const query = req.query as { format?: Format; number?: string };
          const doc = await gst.loadDocument(deps.db, keyPrincipal(req), event.id, req.params.registrationId, role, role === 'refund' ? query.number : undefined);
          return sendDocument(req, reply, doc, query.format);
        },
      );
    documentRoute(
      'invoice',
      'sale',
      'The tax invoice (or bill of supply) of a paid booking',
      'Issued when a paid booking of a GST-registered organiser is confirmed, whichever way it was confirmed (step 2, the gateway’s notification, reconciliation): a tax invoice, or a bill of supply when the event is `admission_exempt_upto_500` and the price is ₹500 or less per person. 404 `document_not_found` when none was issued (a free booking, an unregistered organiser, an event taxed `none`, a booking not confirmed).',
    );
    documentRoute(
      'credit-note',
      'refund',
      'A credit note of a refunded booking',
      'Issued with each refund (or cancellation that refunds) of a booking that had a tax invoice or bill of supply: its own series, naming the original document, crediting what was refunded and its tax — the whole value for a refund in full, the part for a partial refund or a cancellation that kept a fee. A booking refunded in parts has one credit note per part: `number` picks one (the registration’s `documents` list them), otherwise the latest. 404 `document_not_found` when none was issued.',
    );

    app.get(
      '/api/v1/gst/gstr1',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['gst'],
          summary: 'A month’s documents summed for GSTR-1',
          description: [
            'The tax invoices, bills of supply and credit notes of the key’s account and mode issued in `month` (India time), per supplier GSTIN (only `gstin` when given). Amounts in rupees. Per GSTIN: `b2b` (table 4) invoices by recipient GSTIN, for buyers who gave one at registration (`billing.gstin`); `b2cl` (table 5) inter-state invoices to unregistered buyers above ₹1 lakh; `b2cs` (table 7) the other B2C invoices by place of supply and rate, net of their credit notes; `creditNotes.registered` (9B, cdnr) and `.unregistered` (9B, cdnur: against b2cl invoices); `exempt` (table 8) bills of supply net of their credit notes; `sac` (table 12) by SAC and rate, B2B and B2C apart, net of credit notes; `documents` (table 13) each series’ first and last number and count; `totals` net of credit notes.',
            'Shaped to help file; not a filing. Confirm with your tax adviser.',
          ].join('\n\n'),
          querystring: Type.Object(
            { month: Type.String({ maxLength: 7, description: 'YYYY-MM' }), gstin: Type.Optional(Type.String({ maxLength: 20 })) },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                month: Type.String(),
                mode: Type.String(),
                from: Type.String({ description: 'First day (India time).' }),
                to: Type.String({ description: 'The day after the last.' }),
                suppliers: Type.Array(Gstr1Supplier),
              }),
            }),
          },
        },
      },
      async (req) => ({ success: true as const, data: await gst.gstr1(deps.db, keyPrincipal(req), req.query.month, req.query.gstin) }),
    );
  };
