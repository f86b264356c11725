import { EXAMPLE_REGISTRATION } from './registration-example.js';
import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { badRequest } from '../../../lib/errors.js';
import { rupeesToPaise } from '../../../lib/money.js';
import { refundOffline } from '../offline-refund.service.js';
import * as actions from '../actions.service.js';
import type { RegisterDeps } from '../register.service.js';
import { presentOne } from '../registrations.present.js';
import { E, RegAnswer, RegParams } from '../registrations.schemas.js';

const examples: OperationExamples = {
  requests: { default: { value: {} } },
  responses: {
    '200': {
      success: true,
      data: {
        ...EXAMPLE_REGISTRATION,
        status: 'refunded',
        refunded: 499,
        name: 'Dev Mehta',
        email: 'dev.mehta@example.in',
        phone: '+919812345678',
        amount: 499,
        customFields: { company: 'Acme' },
        ticketCode: 'tkt_cP1I5N9iKWsjtVRSQTt73Q',
      },
    },
  },
};

export const refundRegistration: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/registrations/:registrationId/refund',
    {
      config: { auth: FULL_ONLY, examples },
      // No body is a refund in full, as before partial refunds existed.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        operationId: 'refundRegistration',
        tags: ['registrations'],
        summary: 'Refund a paid registration, in full or in part',
        description: [
          'Without `amount`: refunds what is left of the payment at the gateway, marks the registration refunded and frees its seats. With `amount` (rupees) and a `reason`: gives back that part; the registration stays confirmed and its ticket still admits (an `amount` equal to all that is left is a refund in full). Never more than was captured: 409 `refund_exceeds_capture` beyond what is left (`amount - refunded` of the registration), also when another refund took it meanwhile. Where the booking has a tax invoice or bill of supply, each refund issues a credit note for the part refunded. The buyer is mailed the amount and when to expect it.',
          '409 `nothing_to_refund` for a free or unpaid one, `already_ended` for one cancelled or refunded. A paid one is claimed first (status `refunding`), then refunded at the gateway with an idempotency key derived from the booking, the change and what was refunded before: of any number of concurrent changes to one booking exactly one acts, the others answer 409 `registration_changed` (or `refund_exceeds_capture`) and move no money. The gateway refusing answers 502 `gateway_refused` and changes nothing; a gateway that does not answer gives 502 `gateway_error` and the booking stays `refunding` until the reconciliation sweep, asking again with the same key, completes it.',
        ].join('\n\n'),
        params: RegParams,
        body: Type.Optional(
          Type.Object(
            {
              amount: Type.Optional(
                Type.Number({
                  exclusiveMinimum: 0,
                  description: 'Rupees to give back (at most two decimals); omitted: all that is left.',
                }),
              ),
              offline: Type.Optional(
                Type.Boolean({
                  description:
                    'Records a refund you gave outside the gateway of a booking marked paid outside it (docs/guides/offline-payments.md): in full only (400 with `amount`), no gateway is called; the booking ends refunded, its seats are freed, the ledger writes `offline_refund` and reverses the platform fee, and a credit note is issued where an invoice exists. Again: the same answer, nothing more written. 409 `nothing_to_refund` for a booking not paid outside the gateway.',
                }),
              ),
              reason: Type.Optional(
                Type.String({
                  maxLength: 300,
                  description: 'Why; required with `amount`. The buyer’s mail and the credit note carry it.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ),
        response: {
          200: answer(RegAnswer, 'The registration, now refunded.'),
          400: E,
          404: E,
          409: E,
          502: E,
        },
      },
    },
    async (req) => {
      const p = keyPrincipal(req);
      const body = req.body ?? {};
      if (body.offline === true) {
        if (body.amount !== undefined)
          throw badRequest('invalid_request', 'an offline refund is recorded in full: leave out amount', {
            field: 'amount',
          });
        const r = await refundOffline(deps, p, req.params.id, req.params.registrationId, body.reason);
        return { success: true as const, data: await presentOne(deps.db, r) };
      }
      const row =
        body.amount === undefined
          ? await actions.end(deps, p, req.params.id, req.params.registrationId, 'refunded')
          : await actions.refundPartOf(deps, p, req.params.id, req.params.registrationId, {
              amountPaise: rupeesToPaise(body.amount, 'amount'),
              reason: body.reason ?? '',
            });
      return { success: true as const, data: await presentOne(deps.db, row) };
    },
  );
