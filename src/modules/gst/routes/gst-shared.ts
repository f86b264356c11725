// What the gst operations share: the deps type, schemas and helpers of routes/.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../db/database.js';
import type { ReadPool } from '../../../db/read-pool.js';
import type { Clock } from '../../../lib/clock.js';
import { keyPrincipal } from '../../../http/auth.js';
import { paiseToRupees } from '../../../lib/money.js';
import * as events from '../../events/events.service.js';
import type { GstDocument } from '../document.js';
import { renderDocumentHtml } from '../document.view.js';
import { renderDocumentPdf } from '../document.pdf.js';
import * as gst from '../documents.service.js';
import { DocumentSchema } from '../gst.schemas.js';

/** What the gst operations need; `reads` is where the GSTR-1 summary, a report that only reads, reads (src/db/read-pool.ts). */
export type GstRouteDeps = { db: Kysely<Database>; reads: ReadPool; clock: Clock };

export const E = Type.Ref('Error');

export function presentDocument(d: GstDocument) {
  const l = d.line;
  return {
    ...d,
    supplier: {
      legalName: d.supplier.legalName,
      address: d.supplier.address,
      gstin: d.supplier.gstin,
      state: d.supplier.stateCode,
    },
    recipient: {
      name: d.recipient.name,
      email: d.recipient.email,
      gstin: d.recipient.gstin,
      address: d.recipient.address,
      state: d.recipient.stateCode,
    },
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

export type Format = 'json' | 'pdf' | 'html';

export const MEDIA: Record<Format, string> = {
  json: 'application/json',
  pdf: 'application/pdf',
  html: 'text/html',
};

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

export const FORMAT_DESCRIPTION =
  'The format is `?format=json|pdf|html` when given, otherwise chosen from `Accept` (`application/pdf`, `text/html`, `application/json`; the highest q wins, JSON on a tie or without the header). JSON answers `{ success, data }` with amounts in rupees; the PDF (A4, one page) and the HTML page show the same fields. Test-mode documents say "TEST MODE - not a tax document".';

export async function sendDocument(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: GstDocument,
  format: Format | undefined,
) {
  const chosen = format ?? negotiate(req.headers.accept);
  reply.header('vary', 'Accept').header('cache-control', 'private, no-store');
  if (chosen === 'pdf') {
    const pdf = await renderDocumentPdf(doc);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${doc.number}.pdf"`)
      .send(pdf);
  }
  if (chosen === 'html') {
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
      .send(renderDocumentHtml(doc));
  }
  return reply
    .type('application/json; charset=utf-8')
    .send({ success: true as const, data: presentDocument(doc) });
}

export const Params = Type.Object({
  id: Type.String({ maxLength: 100 }),
  registrationId: Type.String({ maxLength: 100 }),
});

export const FormatField = Type.Optional(
  Type.Union([Type.Literal('json'), Type.Literal('pdf'), Type.Literal('html')]),
);

export const FormatQuery = Type.Object({ format: FormatField }, { additionalProperties: false });

export const CreditNoteQuery = Type.Object(
  {
    format: FormatField,
    number: Type.Optional(
      Type.String({ maxLength: 20, description: 'The credit note’s number; the latest when omitted.' }),
    ),
  },
  { additionalProperties: false },
);

export const documentAnswer = {
  description: 'The document, in the format asked for.',
  content: {
    'application/json': { schema: Type.Object({ success: Type.Literal(true), data: DocumentSchema }) },
    'application/pdf': {
      schema: Type.String({ contentMediaType: 'application/pdf', description: 'An A4 PDF.' }),
    },
    'text/html': {
      schema: Type.String({ description: 'A self-contained HTML page (no script, no style).' }),
    },
  },
};

export type DocumentRequest = FastifyRequest<{
  Params: { id: string; registrationId: string };
  Querystring: { format?: Format; number?: string };
}>;

/** The schema of a booking's GST document: the invoice (`sale`) or a credit note (`refund`). */
export const documentSchema = (role: 'sale' | 'refund', summary: string, description: string) => ({
  tags: ['gst'],
  summary,
  description: `${description}\n\n${FORMAT_DESCRIPTION}`,
  params: Params,
  querystring: role === 'sale' ? FormatQuery : CreditNoteQuery,
  response: { 200: documentAnswer, 404: E },
});

/** Answers a booking's GST document in the format asked for. */
export const documentHandler =
  (deps: { db: Kysely<Database> }, role: 'sale' | 'refund') =>
  async (req: DocumentRequest, reply: FastifyReply) => {
    const event = await events.loadOwnedEvent(deps.db, keyPrincipal(req), req.params.id);
    const query = req.query;
    const doc = await gst.loadDocument(
      deps.db,
      keyPrincipal(req),
      event.id,
      req.params.registrationId,
      role,
      role === 'refund' ? query.number : undefined,
    );
    return sendDocument(req, reply, doc, query.format);
  };
