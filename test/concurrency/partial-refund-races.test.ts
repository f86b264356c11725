// Partial refunds racing over one paid booking (docs/decisions/20-booking-lifecycle.md, docs/decisions/28-a-persons-day.md), through two service
// processes on one database, the gateway the Razorpay emulator in live mode. Unlike a cancel,
// several partial refunds of one booking may each act, one after another; what must hold under
// any interleaving is that the gateway never gives back more than it captured, that every
// refund the gateway made is one the service completed (its ledger entry, the registration's
// `refunded`, its audit entry) and no other, and that every loser answers 409 naming why.
// Each race runs twice with the gateway's refunds held until every racer has answered or
// reached the gateway (the widest overlap), and once as they come.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STATE_CODES } from '../helpers/booking-race-checks.js';
import {
  auditIds,
  book,
  newEvent,
  newOrganiser,
  organiserAction,
  race,
  settle,
  startBench,
  type Answer,
  type Bench,
  type Booking,
  type Organiser,
  type Racer,
} from '../helpers/booking-races.js';
import { call } from '../helpers/http.js';

const PRICE = 50_000;
const LOSER_CODES = new Set([...STATE_CODES, 'refund_exceeds_capture']);
const paise = (rupees: number) => Math.round(rupees * 100);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('partial refunds racing over one paid booking, across two processes', () => {
  let bench: Bench;
  before(async () => {
    bench = await startBench();
  });
  after(async () => {
    await bench?.close();
  });

  const partial = (org: Organiser, b: Booking, i: number, rupees: number): Racer =>
    organiserAction(
      org,
      b,
      i,
      'refund',
      { status: 'confirmed', refundPaise: paise(rupees), audit: [] },
      { amount: rupees, reason: `part ${i}` },
    );
  const whole = (org: Organiser, b: Booking, i: number): Racer =>
    organiserAction(org, b, i, 'refund', { status: 'refunded', refundPaise: -1, audit: [] });

  /** Every rule the race over `b` broke. */
  async function problemsOf(
    org: Organiser,
    b: Booking,
    racers: Racer[],
    answers: Answer[],
    auditBefore: Set<string>,
    label: string,
  ): Promise<string[]> {
    const problems: string[] = [];
    for (const [i, a] of answers.entries()) {
      if (a.status === 409 ? !LOSER_CODES.has(a.code ?? '') : a.status < 200 || a.status >= 300)
        problems.push(`${racers[i]!.name} answered ${a.status} ${a.code ?? ''}: ${a.text}`);
    }
    const acted = racers.filter((_, i) => answers[i]!.status >= 200 && answers[i]!.status < 300);
    if (acted.length === 0) problems.push('no racer acted');
    const gateway = bench.rzp.refunds
      .filter((r) => r.payment_id === b.paymentId)
      .map((r) => Number(r.amount));
    if (sum(gateway) > PRICE)
      problems.push(`the gateway refunded ${sum(gateway)} paise of a ${PRICE} paise capture`);
    if (gateway.length !== acted.length)
      problems.push(
        `the gateway made ${gateway.length} refunds (${gateway.join(' + ')}) for ${acted.length} racers that acted`,
      );
    // A partial racer that acted gave back exactly its amount.
    for (const r of acted.filter((x) => x.effect.refundPaise > 0)) {
      if (!gateway.includes(r.effect.refundPaise))
        problems.push(`${r.name} acted but the gateway holds no refund of ${r.effect.refundPaise} paise`);
    }
    const reg = (await org.api(1, 'GET', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}`))
      .body.data;
    if (paise(reg.refunded) !== sum(gateway))
      problems.push(`the registration shows ${reg.refunded} refunded, the gateway ${sum(gateway) / 100}`);
    const wholeActed = acted.some((r) => r.effect.refundPaise < 0) || sum(gateway) === PRICE;
    const wantStatus = wholeActed ? 'refunded' : 'confirmed';
    if (reg.status !== wantStatus) problems.push(`the booking ended ${reg.status}, not ${wantStatus}`);
    const ledger = (
      (
        await call(bench.procs[0]!.url, 'GET', `/dashboard/api/ledger?mode=${org.mode}&limit=1000`, {
          token: org.token,
        })
      ).body.data as any[]
    ).filter((e) => e.source.id === b.registrationId);
    const ledgerRefunds = ledger.filter((e) => e.kind === 'ticket_refund').map((e) => -paise(e.amount));
    if (ledgerRefunds.length !== gateway.length || sum(ledgerRefunds) !== sum(gateway))
      problems.push(
        `the ledger holds refunds [${ledgerRefunds.join(', ')}], the gateway [${gateway.join(', ')}]`,
      );
    const entries = (
      (await org.api(0, 'GET', `/api/v1/audit-log?targetId=${b.registrationId}`)).body.data as any[]
    ).filter((e) => !auditBefore.has(e.id));
    const actions = entries.map((e) => e.action as string);
    const completed = actions.filter(
      (a) => a === 'registration.partial_refund' || a === 'registration.refund',
    ).length;
    if (completed !== gateway.length)
      problems.push(
        `the audit log holds [${actions.join(', ')}]: ${completed} completed refunds for ${gateway.length} at the gateway`,
      );
    const open =
      actions.filter((a) => a === 'registration.refund_claim').length -
      actions.filter((a) => a === 'registration.refund_release').length;
    if (open !== completed)
      problems.push(`the audit log holds ${open} claims not given back for ${completed} completed refunds`);
    const said = racers
      .map((r, i) => `${r.name} → ${answers[i]!.status}${answers[i]!.code ? ` ${answers[i]!.code}` : ''}`)
      .join('; ');
    return problems.map((p) => `[${label}] ${p}   (answers: ${said})`);
  }

  async function raceOver(racers: (org: Organiser, b: Booking) => Racer[]) {
    const org = await newOrganiser(bench, 'live');
    const eventId = await newEvent(bench, org, { price: PRICE / 100 });
    const problems: string[] = [];
    for (const held of [true, true, false]) {
      const b = await book(bench, org, eventId);
      const rs = racers(org, b);
      const auditBefore = await auditIds(org, b);
      const answers = await race(
        bench.rzp,
        rs,
        held ? new RegExp(`^POST /v1/payments/${b.paymentId}/refund$`) : undefined,
      );
      await settle(bench);
      problems.push(
        ...(await problemsOf(
          org,
          b,
          rs,
          answers,
          auditBefore,
          held ? 'refunds held at the gateway' : 'as they come',
        )),
      );
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  }

  it('three partial refunds of ₹200 of a ₹500 booking at once: never more than the capture, each refund made once and recorded once', async () => {
    await raceOver((org, b) => [0, 1, 2].map((i) => partial(org, b, i, 200)));
  });

  it('a partial refund × a refund of all that is left: the capture is never exceeded, and the booking ends as the refunds say', async () => {
    await raceOver((org, b) => [partial(org, b, 0, 300), whole(org, b, 1)]);
  });
});
