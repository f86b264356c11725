// The booking lifecycle is one table (docs/decisions/20-booking-lifecycle.md): every state × event pair is
// derived from it, and the SQL guard of every conditional update (and of the door's admit
// and the one-statement free booking's status) is evaluated by PostgreSQL over every state
// and must agree with `canApply`. The docs' state diagram is the one the table draws.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  BOOKING_EVENTS,
  BOOKING_STATUSES,
  canApply,
  guardSql,
  mayAct,
  stateDiagram,
  statusAfter,
  TRANSITIONS,
  type BookingState,
} from '../../src/modules/registrations/lifecycle/booking-lifecycle.js';
import { ADMITTED_STATUS, refusalOf } from '../../src/modules/checkin/entry-rule.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Every state a booking can be in: each status, with each wait and with or without a captured payment. */
const STATES: BookingState[] = BOOKING_STATUSES.flatMap((status) =>
  (['payment', 'approval', 'offline_payment', null] as const).flatMap((pending_reason) =>
    [
      { payment_id: null, amount_paise: 0 },
      { payment_id: null, amount_paise: 50000 },
      { payment_id: 'pay_X', amount_paise: 50000 },
    ].map((money) => ({ status, pending_reason, ...money })),
  ),
);

describe('the booking lifecycle table', () => {
  it('names a known state for every move, an audit verb for every change of status, and a 409 code for every refusal', () => {
    for (const e of BOOKING_EVENTS) {
      const t = TRANSITIONS[e];
      for (const f of t.from) assert.ok(BOOKING_STATUSES.includes(f), `${e} from ${f}`);
      const changes = t.to !== 'unchanged';
      if (changes) assert.ok(t.audit, `${e} changes a status and must be audited`);
      assert.ok(t.actors.length > 0, `${e} has someone who may set it off`);
    }
    // Only the service expires a booking or finds it refunded at the gateway; an attendee cancels but never approves.
    assert.equal(mayAct('expire', 'key'), false);
    assert.equal(mayAct('refunded_at_gateway', 'user'), false);
    assert.equal(mayAct('cancel', 'attendee'), true);
    assert.equal(mayAct('approve', 'attendee'), false);
    assert.equal(mayAct('admit', 'door_pass'), true);
  });

  it('moves a paid booking only through a claim: cancel never ends one, and only a claim completes or releases', () => {
    const paid: BookingState = {
      status: 'confirmed',
      pending_reason: null,
      payment_id: 'pay_X',
      amount_paise: 50000,
    };
    assert.equal(canApply('cancel', paid), false, 'a paid booking is not cancelled without its refund');
    assert.equal(canApply('claim_refund', paid), true);
    const claimed: BookingState = { ...paid, status: 'refunding' };
    for (const e of BOOKING_EVENTS)
      assert.equal(
        canApply(e, claimed),
        e === 'complete_refund' || e === 'release_claim',
        `${e} on a claimed booking`,
      );
    assert.equal(statusAfter('complete_refund', 'refunding', 'cancelled'), 'cancelled');
    assert.equal(statusAfter('release_claim', 'refunding'), 'confirmed');
    assert.throws(() => statusAfter('complete_refund', 'refunding'));
  });

  it('draws the state diagram the docs show', () => {
    const doc = readFileSync('docs/architecture/booking-lifecycle.md', 'utf8');
    assert.ok(
      doc.includes(stateDiagram()),
      'docs/architecture/booking-lifecycle.md holds stateDiagram() as the table draws it; paste it again',
    );
  });
});

describe('the lifecycle’s SQL guards agree with the table, in PostgreSQL', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('every state × event pair: the guard of the conditional update admits exactly what canApply admits', async () => {
    const cases = STATES.flatMap((s) => BOOKING_EVENTS.map((e) => ({ s, e })));
    let allowed = 0;
    for (const e of BOOKING_EVENTS) {
      const rows = await sql<{ n: number; ok: boolean }>`
        select t.n, (${guardSql(e, 't')}) as ok
        from unnest(${STATES.map((s) => s.status)}::text[], ${STATES.map((s) => s.pending_reason)}::text[], ${STATES.map((s) => s.payment_id)}::text[],
          ${STATES.map((s) => Number(s.amount_paise))}::int[]) with ordinality as t(status, pending_reason, payment_id, amount_paise, n)
        order by t.n`.execute(server.deps.db);
      assert.equal(rows.rows.length, STATES.length);
      for (const r of rows.rows) {
        const s = STATES[Number(r.n) - 1]!;
        assert.equal(r.ok, canApply(e, s), `${e} on ${JSON.stringify(s)}`);
        if (r.ok) allowed++;
      }
    }
    assert.ok(allowed > 0 && allowed < cases.length, 'some pairs move and some do not');
  });

  it('the door admits the statuses the table’s admit starts from, and the free booking writes book’s status', async () => {
    assert.deepEqual([ADMITTED_STATUS], [...TRANSITIONS.admit.from]);
    for (const status of BOOKING_STATUSES)
      assert.equal(refusalOf(status, false) === undefined, TRANSITIONS.admit.from.includes(status), status);
    assert.equal(refusalOf('refunding', false), 'refunded', 'a ticket being refunded is not admitted');
    assert.equal(statusAfter('book', 'pending'), 'confirmed');
  });
});
