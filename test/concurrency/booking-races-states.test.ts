// Changes of a booking's state racing with each other (docs/decisions/20-booking-lifecycle.md), through two
// service processes on one database, live mode at the Razorpay emulator: a paid booking's
// step 2 against the organiser's cancel, against the gateway's signed notification, and
// against the sweep expiring it unpaid; an approval against a rejection. Of concurrent
// changes exactly one acts (or the two in an order the lifecycle allows); nobody keeps
// money for a booking that is gone, and no money moves twice. Paid races run twice on a
// fresh booking: once with the racers' gateway requests held until every racer has answered
// or reached the gateway, once as they come.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweep } from '../../src/modules/reconciliation/reconcile.service.js';
import {
  APPROVE,
  CANCEL,
  CONFIRM,
  EXPIRE,
  raceProblems,
  REJECT,
  type Expect,
} from '../helpers/booking-race-checks.js';
import {
  auditIds,
  book,
  newEvent,
  newOrganiser,
  organiserAction,
  race,
  settle,
  startBench,
  step2,
  WEBHOOK_SECRET,
  type Bench,
  type Booking,
  type Effect,
  type Organiser,
  type Racer,
} from '../helpers/booking-races.js';
import { call } from '../helpers/http.js';
import { signWebhook } from '../helpers/razorpay-emulator.js';

const PRICE = 50_000;
const MINUTE = 60_000;
const confirmed: Effect = { status: 'confirmed', refundPaise: 0, audit: [CONFIRM] };
// Cancelled before it was paid: the payment that comes is refunded in full.
const cancelledUnpaid: Effect = { status: 'cancelled', refundPaise: PRICE, audit: [CANCEL] };
const expired: Effect = { status: 'cancelled', refundPaise: PRICE, audit: [EXPIRE] };

describe('state changes racing over one booking, across two processes', () => {
  let bench: Bench;
  before(async () => {
    bench = await startBench();
  });
  after(async () => {
    await bench?.close();
  });

  interface Round {
    org: Organiser;
    b: Booking;
    label: string;
    racers: Racer[];
    hold?: RegExp;
    capturedPaise: number;
    expect?: Expect;
  }
  async function runRound(r: Round): Promise<string[]> {
    const auditBefore = await auditIds(r.org, r.b);
    const answers = await race(bench.rzp, r.racers, r.hold);
    await settle(bench);
    return raceProblems(bench, r.org, r.b, {
      label: r.label,
      racers: r.racers,
      answers,
      auditBefore,
      capturedPaise: r.capturedPaise,
      expect: r.expect,
    });
  }

  /** Twice on a fresh paid booking, paid at the gateway and not yet confirmed: held, then as they come. */
  async function raceOverPaidPending(
    racers: (org: Organiser, b: Booking) => Racer[],
    hold: (b: Booking) => RegExp,
    expect?: Expect,
    beforeRace?: (b: Booking) => void,
  ) {
    const org = await newOrganiser(bench);
    const eventId = await newEvent(bench, org, { price: PRICE / 100 });
    const problems: string[] = [];
    for (const held of [true, false]) {
      const b = await book(bench, org, eventId, { confirm: false });
      beforeRace?.(b);
      const label = held ? 'gateway calls held' : 'as they come';
      problems.push(
        ...(await runRound({
          org,
          b,
          label,
          racers: racers(org, b),
          hold: held ? hold(b) : undefined,
          capturedPaise: PRICE,
          expect,
        })),
      );
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  }
  const verifyOf = (b: Booking) => new RegExp(`^GET /v1/payments/${b.paymentId}$`);

  it('step 2 × the organiser’s cancel of the pending booking: one acts (or step 2 and then the cancel); a payment for a cancelled booking is refunded once', async () => {
    const expect: Expect = (acted) =>
      acted.length === 1
        ? acted[0]!.effect
        : acted.length === 2
          ? { status: 'cancelled', refundPaise: PRICE, audit: [CONFIRM, CANCEL] }
          : undefined;
    await raceOverPaidPending(
      (org, b) => [step2(org, b, 0, confirmed), organiserAction(org, b, 1, 'cancel', cancelledUnpaid)],
      verifyOf,
      expect,
    );
  });

  it('the gateway’s signed notification × step 2: confirmed once, both answer 200, no refund', async () => {
    let body = '';
    const notification = (b: Booking): Racer => ({
      name: 'order.paid notification #1',
      effect: confirmed,
      run: async () => {
        const r = await call(bench.procs[1]!.url, 'POST', '/webhooks/razorpay', {
          raw: body,
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
          },
        });
        return { status: r.status, code: r.body?.code, text: r.text.slice(0, 300) };
      },
    });
    const takeNotification = (b: Booking) => {
      body = bench.rzp
        .takeNotifications()
        .find((n) => n.paymentId === b.paymentId && n.event === 'order.paid')!.body;
    };
    // Both confirm the same payment: the booking's buyer and the gateway both hear "confirmed".
    const expect: Expect = (acted) => (acted.length === 2 ? confirmed : undefined);
    await raceOverPaidPending(
      (org, b) => [step2(org, b, 0, confirmed), notification(b)],
      verifyOf,
      expect,
      takeNotification,
    );
  });

  it('the sweep expiring an unpaid booking × step 2 confirming it: one acts; a payment for the expired booking is refunded once', async () => {
    // The sweep's clock is past the checkout window, and the gateway tells it of no payment
    // yet (it asked just before the buyer paid): it expires the booking as step 2 confirms it.
    const theSweep: Racer = {
      name: 'the sweep',
      effect: expired,
      run: async () => {
        bench.hub.clock.set(new Date(Date.now() + 31 * MINUTE));
        const summary = await sweep(bench.hub.deps);
        return { status: 200, text: JSON.stringify(summary), acted: summary.expired > 0 };
      },
    };
    const noPaymentYet = (b: Booking) =>
      bench.rzp.fail(new RegExp(`^GET /v1/orders/${b.orderId}/payments$`), {
        status: 200,
        body: { entity: 'collection', count: 0, items: [] },
      });
    const hold = (b: Booking) =>
      new RegExp(`^GET /v1/(payments/${b.paymentId}|orders/${b.orderId}/payments)$`);
    await raceOverPaidPending(
      (org, b) => [theSweep, step2(org, b, 1, confirmed)],
      hold,
      undefined,
      noPaymentYet,
    );
  });

  it('approve × reject of a free booking awaiting approval: one acts', async () => {
    const org = await newOrganiser(bench);
    const eventId = await newEvent(bench, org, { requiresApproval: true, capacity: 10 });
    const approved: Effect = { status: 'confirmed', refundPaise: 0, audit: [APPROVE] };
    const rejected: Effect = { status: 'cancelled', refundPaise: 0, audit: [REJECT] };
    const problems: string[] = [];
    for (const [n, first] of ['approve', 'reject'].entries()) {
      const b = await book(bench, org, eventId);
      // Each process gets one of the two, and each action runs first on either process once.
      const racers = [
        organiserAction(org, b, n, first, first === 'approve' ? approved : rejected),
        organiserAction(
          org,
          b,
          n + 1,
          first === 'approve' ? 'reject' : 'approve',
          first === 'approve' ? rejected : approved,
        ),
      ];
      problems.push(...(await runRound({ org, b, label: `round ${n + 1}`, racers, capturedPaise: 0 })));
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
