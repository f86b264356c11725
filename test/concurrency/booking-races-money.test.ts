// Changes that move money racing over one paid booking (docs/decisions/20-booking-lifecycle.md), through two
// service processes on one database, the gateway the Razorpay emulator in live mode (and, for
// the headline case, the sandbox gateway in test mode). Found from outside: four concurrent
// cancels of one ₹500 test-mode booking under a 50 % fee policy made refunds of ₹750 at the
// gateway while the ledger held one of −₹250. Of any number of concurrent requests for one
// booking exactly one acts; the others answer 409 and move no money. Each race runs on fresh
// bookings: live, with the gateway's refunds held until every racer has answered or reached
// the gateway (the widest overlap), and as they come.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CANCEL, raceProblems, REFUND, TRANSFER, type Expect } from '../helpers/booking-race-checks.js';
import {
  attendeeCancel,
  attendeeCancelForm,
  auditIds,
  book,
  newEvent,
  newOrganiser,
  organiserAction,
  race,
  settle,
  startBench,
  type Bench,
  type Booking,
  type Effect,
  type Organiser,
  type Racer,
} from '../helpers/booking-races.js';
import { uniqueEmail } from '../helpers/http.js';

const PRICE = 50_000;
const FEE_POLICY = { selfService: { cancel: true, refund: { feePercent: 50 } } };
const cancelled: Effect = { status: 'cancelled', refundPaise: PRICE, audit: [CANCEL] };
const refunded: Effect = { status: 'refunded', refundPaise: PRICE, audit: [REFUND] };
const attendeeCancelled: Effect = { status: 'cancelled', refundPaise: PRICE / 2, audit: [CANCEL] };
const transferred: Effect = { status: 'confirmed', refundPaise: 0, audit: [TRANSFER] };

describe('money-moving changes racing over one paid booking, across two processes', () => {
  let bench: Bench;
  before(async () => {
    bench = await startBench();
  });
  after(async () => {
    await bench?.close();
  });

  /**
   * Books, races and checks on one event of a new organiser, a fresh booking each round:
   * live, twice held at the gateway (which racer's refund the gateway makes first and which
   * racer's update commits first vary) and once as they come; test mode (the sandbox gateway
   * answers in the service, nothing to hold) three times as they come. Fails listing every
   * rule any round broke.
   */
  async function raceOverPaidBooking(
    fields: Record<string, unknown>,
    racers: (org: Organiser, b: Booking) => Promise<Racer[]>,
    options: { expect?: Expect; mode?: 'live' | 'test' } = {},
  ) {
    const { expect, mode = 'live' } = options;
    const org = await newOrganiser(bench, mode);
    const eventId = await newEvent(bench, org, { price: PRICE / 100, ...fields });
    const problems: string[] = [];
    for (const held of mode === 'live' ? [true, true, false] : [false, false, false]) {
      const b = await book(bench, org, eventId);
      const rs = await racers(org, b);
      const auditBefore = await auditIds(org, b);
      const answers = await race(
        bench.rzp,
        rs,
        held ? new RegExp(`^POST /v1/payments/${b.paymentId}/refund$`) : undefined,
      );
      await settle(bench);
      const label = held ? 'refunds held at the gateway' : 'as they come';
      problems.push(
        ...(await raceProblems(bench, org, b, {
          label,
          racers: rs,
          answers,
          auditBefore,
          capturedPaise: PRICE,
          expect,
        })),
      );
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  }

  const sixCancels = async (org: Organiser, b: Booking) => {
    const form = await attendeeCancelForm(bench, org, b);
    return [0, 1, 2]
      .map((i) => organiserAction(org, b, i, 'cancel', cancelled))
      .concat([3, 4, 5].map((i) => attendeeCancel(bench, form, i, attendeeCancelled)));
  };

  it('six cancels of one paid booking at once, three by the organiser and three from the attendee’s page under a 50 % fee: one acts, one refund', async () => {
    await raceOverPaidBooking(FEE_POLICY, sixCancels);
  });

  it('the same six cancels of a test-mode booking at the sandbox gateway: one acts, the refund within the capture', async () => {
    await raceOverPaidBooking(FEE_POLICY, sixCancels, { mode: 'test' });
  });

  it('cancel × cancel by the organiser: one refund', async () => {
    await raceOverPaidBooking({}, async (org, b) => [
      organiserAction(org, b, 0, 'cancel', cancelled),
      organiserAction(org, b, 1, 'cancel', cancelled),
    ]);
  });

  it('cancel × refund by the organiser: one refund, the winner’s status', async () => {
    await raceOverPaidBooking({}, async (org, b) => [
      organiserAction(org, b, 0, 'cancel', cancelled),
      organiserAction(org, b, 1, 'refund', refunded),
    ]);
  });

  it('refund × refund by the organiser: one refund', async () => {
    await raceOverPaidBooking({}, async (org, b) => [
      organiserAction(org, b, 0, 'refund', refunded),
      organiserAction(org, b, 1, 'refund', refunded),
    ]);
  });

  it('the attendee’s cancel under a 50 % fee × the organiser’s refund: the winner’s amount, once', async () => {
    await raceOverPaidBooking(FEE_POLICY, async (org, b) => [
      attendeeCancel(bench, await attendeeCancelForm(bench, org, b), 0, attendeeCancelled),
      organiserAction(org, b, 1, 'refund', refunded),
    ]);
  });

  it('transfer × cancel: one acts, or the transfer and then the cancel of the transferred ticket', async () => {
    // A transfer keeps the booking confirmed, so a cancel after it is a change of its own.
    const expect: Expect = (acted) =>
      acted.length === 1
        ? acted[0]!.effect
        : acted.length === 2
          ? { status: 'cancelled', refundPaise: PRICE, audit: [TRANSFER, CANCEL] }
          : undefined;
    await raceOverPaidBooking(
      {},
      async (org, b) => [
        organiserAction(org, b, 0, 'transfer', transferred, {
          name: 'New Holder',
          email: uniqueEmail('holder'),
        }),
        organiserAction(org, b, 1, 'cancel', cancelled),
      ],
      { expect },
    );
  });
});
