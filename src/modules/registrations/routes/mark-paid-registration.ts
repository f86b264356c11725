import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { markPaid } from '../mark-paid.service.js';
import type { RegisterDeps } from '../register.service.js';
import { presentOne } from '../registrations.present.js';
import { E, RegAnswer, RegParams } from '../registrations.schemas.js';
import { EXAMPLE_REGISTRATION } from './registration-example.js';

const examples: OperationExamples = {
  requests: {
    bank: {
      summary: 'A bank transfer arrived',
      value: {
        method: 'bank_transfer',
        reference: 'UTR 412345678901',
        amountPaid: 499,
        paidAt: '2026-12-02T11:20:00+05:30',
      },
    },
  },
  responses: {
    '200': { success: true, data: { ...EXAMPLE_REGISTRATION, status: 'confirmed' } },
  },
};

const MarkPaidBody = Type.Object(
  {
    method: Type.Union(
      [Type.Literal('bank_transfer'), Type.Literal('upi_to_organiser'), Type.Literal('cash_at_venue')],
      { description: 'How the money came (it may differ from the method chosen at booking).' },
    ),
    reference: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'The bank’s or UPI app’s reference (UTR), or a receipt number.',
      }),
    ),
    amountPaid: Type.Number({
      description:
        'Rupees received, at most two decimals: must be the booking’s amount due, else 409 `amount_mismatch` (with `amountDue`); a part payment is not recorded.',
    }),
    paidAt: Type.Optional(
      Type.String({ maxLength: 40, description: 'When it was paid: ISO 8601 with offset (default now).' }),
    ),
  },
  { additionalProperties: false },
);

export const markPaidRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/mark-paid',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'markRegistrationPaid',
        tags: ['registrations'],
        summary: 'Mark a booking paid outside the gateway',
        description:
          'For a booking pending with `awaitingPayment` (docs/guides/offline-payments.md): confirms it with every effect of a paid confirmation — the ticket mails with their QR codes, the `registration.confirmed` webhook, the GST invoice, the ledger’s `offline_sale` (never payable) and platform fee (no gateway charge), and an audit entry `registration.mark_paid` naming who marked it. Full keys only (a checkout key gets 403). Marking a booking already marked paid answers it unchanged and writes nothing (no second invoice or ledger entry); of two marks at once one confirms and both answer the confirmed booking. 409 `amount_mismatch` when `amountPaid` is not the amount due; 409 `registration_not_pending` for a booking cancelled at its payBy (or otherwise not awaiting an offline payment).',
        params: RegParams,
        body: MarkPaidBody,
        response: { 200: answer(RegAnswer, 'The registration, confirmed.'), 400: E, 404: E, 409: E },
      },
    },
    async (req) => ({
      success: true as const,
      data: await presentOne(
        deps.db,
        (await markPaid(deps, keyPrincipal(req), req.params.id, req.params.registrationId, req.body)).reg,
      ),
    }),
  );
