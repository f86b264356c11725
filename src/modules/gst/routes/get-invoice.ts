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
        kind: 'tax_invoice',
        number: 'TIXI2627-000001',
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
        original: null,
        reason: null,
        paymentId: EX.paymentId,
        eventId: EX.eventId,
        registrationId: EX.registrationId,
      },
    },
  },
};

export const getInvoice: Operation<GstRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/registrations/:registrationId/invoice',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getInvoice',
        ...documentSchema(
          'sale',
          'The tax invoice (or bill of supply) of a paid booking',
          'Issued when a paid booking of a GST-registered organiser is confirmed, whichever way it was confirmed (step 2, the gateway’s notification, reconciliation): a tax invoice, or a bill of supply when the event is `admission_exempt_upto_500` and the price is ₹500 or less per person. 404 `document_not_found` when none was issued (a free booking, an unregistered organiser, an event taxed `none`, a booking not confirmed).',
        ),
      },
    },
    documentHandler(deps, 'sale'),
  );
