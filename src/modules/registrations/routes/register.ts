import { ANY_KEY, type KeyPrincipal, keyPrincipal } from '../../../http/auth.js';
import { addressKey } from '../../../http/client-address.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { badRequest } from '../../../lib/errors.js';
import { confirmStep2, register as registerBooking, type RegisterDeps } from '../register.service.js';
import { E, EventParams, RegisterAnswer, RegisterBody, Step2Answer } from '../registrations.schemas.js';

const examples: OperationExamples = {
  requests: {
    step1: {
      summary: 'Book a paid ticket: answers the gateway order to pay',
      value: {
        name: 'Asha Rao',
        email: 'asha@example.in',
        phone: '+919812345678',
        customFields: { company: 'Acme' },
      },
    },
    step2: {
      summary: 'Confirm it with the payment the checkout made',
      value: { registrationId: EX.registrationId, orderId: EX.orderId, paymentId: EX.paymentId },
    },
  },
  responses: {
    '201 step1': {
      success: true,
      registrationId: EX.registrationId,
      orderId: EX.orderId,
      amount: 49900,
      currency: 'INR',
      key: 'rzp_test_sandbox',
    },
    '200 step2': {
      success: true,
      registrationId: EX.registrationId,
      status: 'confirmed',
      orderId: EX.orderId,
      paymentId: EX.paymentId,
    },
  },
};

export const register: Operation<RegisterDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/register',
    {
      config: { auth: ANY_KEY, examples },
      schema: {
        operationId: 'register',
        tags: ['registrations'],
        summary: 'Register: free in one call, paid in two steps around the gateway checkout',
        description: [
          'Free (or discounted to 0): 201 `{ success, registrationId, status }`, no orderId. Paid step 1: 201 `{ orderId, registrationId, amount, currency, key }` and a pending registration with the answers intact. Paid step 2: exactly `{ registrationId, orderId, paymentId }` → 200 confirmation; the payment is verified at the gateway and bound to the order and the registration.',
          'Each person on a confirmed booking is mailed a ticket: the date in words in the event’s time zone (`EVENT_TIME_ZONE`, India Standard Time by default), what was paid (or `free`) and, for the payer, a receipt line, the QR code of the bare ticket id, an `event.ics` calendar file (UID = the ticket id) and the link to the attendee’s own page.',
          'Refusals (a refusal about one input names it in `field`: `name`, `email`, `teamMembers[i].email`, `customFields.<name>`, `promoCode`, `membershipId`, `ticketType`, `subEventId`): 400 invalid input (`invalid_phone`, `phone_required` for whatsappOptIn without a phone, `track_required` without `subEventId` on an event with tracks that does not sell the whole event — see the event’s `wholeEventOption`), `promo_code_invalid` for a promo code that is unknown, out of date or used up (one code and one sentence for all three), an email that provably cannot receive mail (`undeliverable_email`); 402 `payment_not_verified` for a payment id that is unknown, not captured, for another order or amount, or bound to another registration (the registration stays pending); 403 `members_only` (full key: the email holds no membership in good standing) or `membership_required` (checkout key: a members-only tier needs `membershipId`, a membership in good standing with this email); 409 `sold_out` when the seats are gone (a payment already taken is refunded and the registration ends cancelled); 409 `event_not_published` for a live draft; 409 `payments_not_configured` when the service takes no live payments (its message names no setting: buyers may read it); 502 when the gateway fails (nothing changes).',
          'Unpaid bookings hold nothing for long: a paid booking is payable for `CHECKOUT_WINDOW_MINUTES` (default 30) after step 1, then the reconciliation sweep cancels it and releases its promo code’s use (a payment that still arrives is refunded in full). At most 3 bookings of an event wait for payment per email (those awaiting a payment outside the gateway included), and — for a checkout key — 20 per client address (as the service sees it, after `TRUST_PROXY`); step 1 beyond that answers 429 `too_many_pending`, before any gateway order.',
          'A seated event (one with a `seatingPlanId`) is booked with the `holdToken` of the seats held for it, one seat per person; see `holdToken` and docs/guides/reserved-seating.md.',
          'Payment outside the gateway (docs/guides/offline-payments.md): on an event whose `offlinePayment` is enabled, step 1 with `paymentMethod` one of its `methods` answers 201 `{ registrationId, status: "pending", amount, currency, awaitingPayment: { method, reference, payBy } }` and no order; the booking takes its seats at once and keeps them until `payBy`, the buyer is mailed how to pay, a reminder follows a day before `payBy`, and at `payBy` an unpaid booking is cancelled and its seats offered to the waitlist. The organiser confirms it with `mark-paid`. A method the event does not take is 400 `payment_method_not_offered`; a free booking ignores the method.',
          'High-demand sales (docs/decisions/26-a-fair-waiting-room.md): while the event’s waiting room is on, a checkout key’s call needs the buyer’s `admissionToken` (403 `admission_required` without a valid one for this event and email; full keys and a `waitlistOffer`’s holder are not asked). An event with `onSale.perBuyerLimit` refuses a booking whose tickets, with those the buyer already holds on the event — by email (trimmed, lower-cased) and by phone, across its confirmed and pending bookings (awaiting payment at the gateway or outside it, or approval; not cancelled, refunded or expired) — would exceed the limit: 409 `per_buyer_limit_reached` with `limit`. Every way of booking counts (full or checkout key, the hosted page, a waitlist offer, a seated hold), whether or not the waiting room is on.',
          'Test keys may register on draft test events; live events must be published.',
        ].join('\n\n'),
        params: EventParams,
        body: RegisterBody,
        response: {
          200: Step2Answer,
          201: answer(
            RegisterAnswer,
            'A free registration confirmed (or awaiting approval), or a paid one pending with the gateway order to pay.',
          ),
          402: E,
          403: E,
          404: E,
          409: E,
          502: E,
          503: E,
        },
      },
    },
    async (req, reply) => {
      const p = keyPrincipal(req);
      const body = req.body;
      if (step2Fields.some((f) => body[f] !== undefined)) {
        const c = await step2(deps, p, req.params.id, body);
        return reply.code(200).send({ success: true as const, ...c });
      }
      if (body.name === undefined)
        throw badRequest('invalid_request', 'body is missing required field "name"');
      if (body.email === undefined)
        throw badRequest('invalid_request', 'body is missing required field "email"');
      const r = await registerBooking(
        deps,
        p,
        req.params.id,
        {
          name: body.name,
          email: body.email,
          phone: body.phone,
          whatsappOptIn: body.whatsappOptIn,
          customFields: body.customFields,
          teamMembers: body.teamMembers,
          promoCode: body.promoCode,
          membershipId: body.membershipId,
          memberProof: body.memberProof,
          ticketType: body.ticketType,
          subEventId: body.subEventId,
          billing: body.billing,
          waitlistOffer: body.waitlistOffer,
          holdToken: body.holdToken,
          paymentMethod: body.paymentMethod,
        },
        { clientAddress: addressKey(req.ip), admission: admissionAsked(p, body.admissionToken) },
      );
      if (r.kind === 'free')
        return reply.code(201).send({
          success: true as const,
          registrationId: r.registrationId,
          status: r.status,
          ticketIds: r.ticketIds,
        });
      if (r.kind === 'offline')
        return reply.code(201).send({
          success: true as const,
          registrationId: r.registrationId,
          status: 'pending' as const,
          amount: r.amount,
          currency: r.currency,
          awaitingPayment: { ...r.awaitingPayment, payBy: r.awaitingPayment.payBy.toISOString() },
        });
      return reply.code(201).send({
        success: true as const,
        registrationId: r.registrationId,
        orderId: r.orderId,
        amount: r.amount,
        currency: r.currency,
        key: r.key,
      });
    },
  );

const step2Fields = ['registrationId', 'orderId', 'paymentId'] as const;

/** A browser's call (a checkout key) passes the waiting room as the hosted page's does; the organiser's server does not. */
const admissionAsked = (p: KeyPrincipal, token: string | undefined) =>
  p.keyClass === 'checkout' ? { token } : undefined;

/** Step 2: exactly the three fields, then the confirmation. */
function step2(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  body: { [F in (typeof step2Fields)[number]]?: string | undefined },
) {
  const extra = Object.keys(body).filter((k) => !(step2Fields as readonly string[]).includes(k));
  if (extra.length > 0)
    throw badRequest(
      'invalid_request',
      `step 2 takes exactly registrationId, orderId and paymentId; remove ${extra.join(', ')}`,
    );
  const missing = step2Fields.filter((f) => body[f] === undefined);
  if (missing.length > 0) throw badRequest('invalid_request', `step 2 is missing ${missing.join(', ')}`);
  return confirmStep2(deps, p, eventId, {
    registrationId: body.registrationId!,
    orderId: body.orderId!,
    paymentId: body.paymentId!,
  });
}
