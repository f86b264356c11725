import { FULL_ONLY } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { type Operation } from '../../../http/operation.js';
import { GstRouteDeps, documentSchema, documentHandler } from './gst-shared.js';

const examples: OperationExamples = {
  params: { format: 'json' },
  responses: {
    '200': {
      success: true,
      data: {
        kind: 'credit_note',
        number: 'TIXC2627-000001',
        date: '2026-11-25',
        issuedAt: '2026-11-25T07:51:24.908Z',
        financialYear: '2026-27',
        testMode: true,
        supplier: {
          legalName: 'Acme Events LLP',
          address: '14 FC Road, Shivajinagar, Pune 411005',
          gstin: '27AAPFU0939F1ZV',
          state: '27',
        },
        recipient: { name: 'Asha Rao', email: 'asha@example.in', gstin: null, address: null, state: '27' },
        placeOfSupply: '27',
        supplyType: 'intra_state',
        reverseCharge: false,
        line: {
          description: 'Admission: Pune Tech Summit 2027 (General), 2027-01-16',
          sac: '9996',
          quantity: 1,
          rate: 18,
          total: 499,
          taxableValue: 422.88,
          cgst: 38.06,
          sgst: 38.06,
          utgst: 0,
          igst: 0,
        },
        exemption: null,
        original: { kind: 'tax_invoice', number: 'TIXI2627-000001', date: '2026-11-25' },
        reason: 'Booking refunded',
        paymentId: EX.paymentId,
        eventId: EX.eventId,
        registrationId: EX.registrationId,
      },
    },
  },
};

export const getCreditNote: Operation<GstRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/registrations/:registrationId/credit-note',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getCreditNote',
        ...documentSchema(
          'refund',
          'A credit note of a refunded booking',
          'Issued with each refund (or cancellation that refunds) of a booking that had a tax invoice or bill of supply: its own series, naming the original document, crediting what was refunded and its tax — the whole value for a refund in full, the part for a partial refund or a cancellation that kept a fee. A booking refunded in parts has one credit note per part: `number` picks one (the registration’s `documents` list them), otherwise the latest. 404 `document_not_found` when none was issued.',
        ),
      },
    },
    documentHandler(deps, 'refund'),
  );
