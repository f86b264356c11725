// The GST documents export: its columns and its CSV (the other exports: exports.service.ts).
import { stateName } from '../../lib/gstin.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { exportDocuments } from '../gst/documents.service.js';
import type * as gst from '../gst/gst.service.js';
import { csvStream, rupeesText, type Column } from './csv.js';
import {
  EXPORT_BATCH,
  fileName,
  flatten,
  parseDayRange,
  rangeParts,
  type CsvExport,
  type DayRange,
  type ExportDeps,
} from './exports.service.js';

const stateText = (code: string) => `${code}-${stateName(code)}`;

/** The GST documents file's columns: every Rule 46 field of the line, amounts as on the document (a credit note's are positive). */
export function gstDocumentColumns(): Column<gst.GstDocument>[] {
  return [
    { header: 'number', value: (d) => d.number },
    { header: 'kind', value: (d) => d.kind },
    { header: 'date', value: (d) => d.date },
    { header: 'issued_at', value: (d) => new Date(d.issuedAt) },
    { header: 'financial_year', value: (d) => d.financialYear },
    { header: 'supplier_gstin', value: (d) => d.supplier.gstin },
    { header: 'supplier_name', value: (d) => d.supplier.legalName },
    { header: 'recipient_name', value: (d) => d.recipient.name },
    { header: 'recipient_email', value: (d) => d.recipient.email },
    { header: 'recipient_gstin', value: (d) => d.recipient.gstin },
    { header: 'recipient_address', value: (d) => d.recipient.address },
    { header: 'recipient_state', value: (d) => stateText(d.recipient.stateCode) },
    { header: 'place_of_supply', value: (d) => stateText(d.placeOfSupply) },
    { header: 'supply_type', value: (d) => d.supplyType },
    { header: 'sac', value: (d) => d.line.sac },
    { header: 'description', value: (d) => d.line.description },
    { header: 'quantity', value: (d) => d.line.quantity },
    { header: 'rate_percent', value: (d) => d.line.ratePercent },
    { header: 'taxable_value', value: (d) => rupeesText(d.line.taxablePaise) },
    { header: 'cgst', value: (d) => rupeesText(d.line.cgstPaise) },
    { header: 'sgst', value: (d) => rupeesText(d.line.sgstPaise) },
    { header: 'utgst', value: (d) => rupeesText(d.line.utgstPaise) },
    { header: 'igst', value: (d) => rupeesText(d.line.igstPaise) },
    { header: 'total', value: (d) => rupeesText(d.line.totalPaise) },
    { header: 'original_number', value: (d) => d.original?.number ?? null },
    { header: 'original_date', value: (d) => d.original?.date ?? null },
    { header: 'reason', value: (d) => d.reason },
    { header: 'event_id', value: (d) => d.eventId },
    { header: 'registration_id', value: (d) => d.registrationId },
    { header: 'payment_id', value: (d) => d.paymentId },
    { header: 'test_mode', value: (d) => d.testMode },
  ];
}

export async function gstDocumentsCsv(
  deps: ExportDeps,
  p: KeyPrincipal,
  range: DayRange,
): Promise<CsvExport> {
  const days = parseDayRange(range);
  return {
    filename: fileName(['gst-documents', ...rangeParts(days)], p.mode, deps.clock.now()),
    stream: await csvStream(
      gstDocumentColumns(),
      flatten(exportDocuments(deps.reads.db, p, days, EXPORT_BATCH)),
    ),
    lagSeconds: await deps.reads.lagSeconds(),
  };
}
