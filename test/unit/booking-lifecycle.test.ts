// The booking lifecycle table as docs/decisions/20-booking-lifecycle.md and docs/architecture/booking-lifecycle.md
// describe it, checked without a database: which state each event starts from and leaves,
// who may set it off, the audit verb and the 409 code, the guard's SQL text, and the state
// diagram the docs show. (test/registrations/lifecycle.test.ts runs the same guards in
// PostgreSQL and compares the docs file with the drawn diagram.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { AuditActorKind, RegistrationStatus } from '../../src/db/database.js';
import {
  BOOKING_EVENTS,
  BOOKING_STATUSES,
  canApply,
  CLAIMED_STATUSES,
  guardSql,
  holdsPayment,
  mayAct,
  stateDiagram,
  statusAfter,
  TRANSITIONS,
  type BookingEvent,
  type BookingState,
  type PendingReason,
} from '../../src/modules/registrations/lifecycle/booking-lifecycle.js';

const ACTORS: AuditActorKind[] = ['user', 'key', 'door_pass', 'staff', 'attendee', 'system'];

/** The lifecycle as the docs state it: from, the wait, captured money, to, who, audit verb, 409 code. */
interface Row {
  from: RegistrationStatus[];
  wait?: PendingReason;
  paid?: boolean;
  to: RegistrationStatus | 'unchanged' | 'claimed';
  who: AuditActorKind[];
  audit: string | undefined;
  refusal: string;
}
const buyer: AuditActorKind[] = ['key', 'user', 'system'];
const people: AuditActorKind[] = ['user', 'key', 'staff'];
const anyone: AuditActorKind[] = ['user', 'key', 'staff', 'attendee', 'system'];
const EXPECTED: Record<BookingEvent, Row> = {
  book: { from: [], to: 'confirmed', who: buyer, audit: 'book', refusal: 'registration_changed' },
  await_payment: { from: [], to: 'pending', who: buyer, audit: 'book', refusal: 'registration_changed' },
  await_approval: { from: [], to: 'pending', who: buyer, audit: 'book', refusal: 'registration_changed' },
  await_offline_payment: {
    from: [],
    to: 'pending',
    who: buyer,
    audit: 'book',
    refusal: 'registration_changed',
  },
  pay: {
    from: ['pending'],
    wait: 'payment',
    to: 'confirmed',
    who: buyer,
    audit: 'pay',
    refusal: 'registration_not_pending',
  },
  lose_last_seat: {
    from: ['pending'],
    wait: 'payment',
    to: 'cancelled',
    who: buyer,
    audit: 'sold_out',
    refusal: 'registration_not_pending',
  },
  approve: {
    from: ['pending'],
    wait: 'approval',
    to: 'confirmed',
    who: people,
    audit: 'approve',
    refusal: 'not_awaiting_approval',
  },
  reject: {
    from: ['pending'],
    wait: 'approval',
    to: 'cancelled',
    who: people,
    audit: 'reject',
    refusal: 'not_awaiting_approval',
  },
  cancel: {
    from: ['pending', 'confirmed'],
    paid: false,
    to: 'cancelled',
    who: anyone,
    audit: 'cancel',
    refusal: 'already_ended',
  },
  claim_refund: {
    from: ['confirmed'],
    paid: true,
    to: 'refunding',
    who: anyone,
    audit: 'refund_claim',
    refusal: 'already_ended',
  },
  complete_refund: {
    from: ['refunding'],
    to: 'claimed',
    who: anyone,
    audit: 'refund',
    refusal: 'registration_changed',
  },
  release_claim: {
    from: ['refunding'],
    to: 'confirmed',
    who: anyone,
    audit: 'refund_release',
    refusal: 'registration_changed',
  },
  expire: {
    from: ['pending'],
    wait: 'payment',
    paid: false,
    to: 'cancelled',
    who: ['system'],
    audit: 'expire',
    refusal: 'registration_not_pending',
  },
  mark_paid: {
    from: ['pending'],
    wait: 'offline_payment',
    to: 'confirmed',
    who: people,
    audit: 'mark_paid',
    refusal: 'registration_not_pending',
  },
  lapse_unpaid: {
    from: ['pending'],
    wait: 'offline_payment',
    to: 'cancelled',
    who: ['system'],
    audit: 'lapse_unpaid',
    refusal: 'registration_not_pending',
  },
  refund_offline: {
    from: ['confirmed'],
    paid: false,
    to: 'refunded',
    who: people,
    audit: 'refund_offline',
    refusal: 'already_ended',
  },
  refunded_at_gateway: {
    from: ['confirmed'],
    paid: true,
    to: 'refunded',
    who: ['system'],
    audit: 'refunded_at_gateway',
    refusal: 'registration_changed',
  },
  transfer: {
    from: ['confirmed'],
    to: 'unchanged',
    who: [...people, 'attendee'],
    audit: 'transfer',
    refusal: 'not_confirmed',
  },
  admit: {
    from: ['confirmed'],
    to: 'unchanged',
    who: ['user', 'key', 'door_pass', 'staff'],
    audit: undefined,
    refusal: 'not_confirmed',
  },
};

/** Every state a booking can be in: each status, each wait, no money, an unpaid amount, a captured payment (as a number and as PostgreSQL's numeric text). */
const MONEY = [
  { payment_id: null, amount_paise: 0 },
  { payment_id: null, amount_paise: 50000 },
  { payment_id: 'pay_X', amount_paise: 0 },
  { payment_id: 'pay_X', amount_paise: 50000 },
  { payment_id: 'pay_X', amount_paise: '1' },
];
const STATES: BookingState[] = BOOKING_STATUSES.flatMap((status) =>
  (['payment', 'approval', 'offline_payment', null] as const).flatMap((pending_reason) =>
    MONEY.map((money) => ({ status, pending_reason, ...money })),
  ),
);
const captured = (s: BookingState) => s.payment_id !== null && Number(s.amount_paise) > 0;

const db = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (d) => new PostgresIntrospector(d),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('the booking lifecycle table', () => {
  it('has the five statuses and the nineteen events, and a claim ends cancelled, refunded or confirmed', () => {
    assert.deepEqual([...BOOKING_STATUSES], ['pending', 'confirmed', 'refunding', 'cancelled', 'refunded']);
    assert.deepEqual(BOOKING_EVENTS, Object.keys(EXPECTED));
    assert.deepEqual([...CLAIMED_STATUSES], ['cancelled', 'refunded', 'confirmed']);
  });

  it('names the audit verb and the 409 code of each event', () => {
    for (const e of BOOKING_EVENTS) {
      assert.equal(TRANSITIONS[e].audit, EXPECTED[e].audit, `${e} audit`);
      assert.equal(TRANSITIONS[e].refusal, EXPECTED[e].refusal, `${e} refusal`);
    }
  });

  it('lets each event be set off by exactly the actors the docs name', () => {
    for (const e of BOOKING_EVENTS)
      for (const a of ACTORS) assert.equal(mayAct(e, a), EXPECTED[e].who.includes(a), `${a} ${e}`);
    // The rules behind the table, in words.
    assert.equal(mayAct('expire', 'key'), false, 'only the service expires an unpaid booking');
    assert.equal(
      mayAct('refunded_at_gateway', 'staff'),
      false,
      'only the sweep ends a booking refunded at the gateway',
    );
    assert.equal(mayAct('approve', 'attendee'), false, 'an attendee cancels but never approves');
    assert.equal(mayAct('admit', 'door_pass'), true);
    assert.equal(mayAct('admit', 'attendee'), false);
  });

  it('allows each event exactly from its states, its wait and its money, over every state a booking can be in', () => {
    for (const e of BOOKING_EVENTS) {
      const x = EXPECTED[e];
      for (const s of STATES) {
        const expected =
          x.from.includes(s.status) &&
          (x.wait === undefined || s.pending_reason === x.wait) &&
          (x.paid === undefined || captured(s) === x.paid);
        assert.equal(canApply(e, s), expected, `${e} on ${JSON.stringify(s)}`);
      }
    }
  });

  it('moves money only through a claim: a paid booking is never cancelled outright', () => {
    const paid: BookingState = {
      status: 'confirmed',
      pending_reason: null,
      payment_id: 'pay_X',
      amount_paise: 50000,
    };
    assert.equal(canApply('cancel', paid), false);
    assert.equal(canApply('claim_refund', paid), true);
    assert.equal(canApply('refunded_at_gateway', paid), true);
    const free: BookingState = {
      status: 'confirmed',
      pending_reason: null,
      payment_id: null,
      amount_paise: 0,
    };
    assert.equal(canApply('cancel', free), true);
    assert.equal(canApply('claim_refund', free), false, 'nothing captured, nothing to claim');
    const claimed: BookingState = { ...paid, status: 'refunding' };
    for (const e of BOOKING_EVENTS)
      assert.equal(canApply(e, claimed), e === 'complete_refund' || e === 'release_claim', e);
    const unpaid: BookingState = {
      status: 'pending',
      pending_reason: 'payment',
      payment_id: null,
      amount_paise: 50000,
    };
    assert.equal(canApply('expire', unpaid), true);
    assert.equal(
      canApply('expire', { ...unpaid, payment_id: 'pay_X' }),
      false,
      'a booking whose payment came is not expired',
    );
    assert.equal(canApply('approve', unpaid), false, 'a booking waiting for its payment is not approved');
  });

  it('holds a payment only with a payment id and more than 0 paise', () => {
    assert.equal(holdsPayment({ payment_id: 'pay_X', amount_paise: 1 }), true);
    assert.equal(
      holdsPayment({ payment_id: 'pay_X', amount_paise: '49900' }),
      true,
      'numeric columns arrive as text',
    );
    assert.equal(holdsPayment({ payment_id: 'pay_X', amount_paise: 0 }), false);
    assert.equal(holdsPayment({ payment_id: 'pay_X', amount_paise: '0' }), false);
    assert.equal(holdsPayment({ payment_id: null, amount_paise: 49900 }), false);
  });

  it('says the status after each event: its own, the one it left unchanged, or the one the claim chose', () => {
    for (const e of BOOKING_EVENTS) {
      const to = EXPECTED[e].to;
      if (to === 'claimed') {
        for (const c of ['cancelled', 'refunded', 'confirmed'] as const)
          assert.equal(statusAfter(e, 'refunding', c), c, `${e} → ${c}`);
        assert.throws(
          () => statusAfter(e, 'refunding'),
          /^Error: complete_refund needs the status its claim chose$/,
        );
        assert.throws(
          () => statusAfter(e, 'refunding', 'refunding' as never),
          /needs the status its claim chose/,
          'a claim cannot end in a status it may not choose',
        );
      } else if (to === 'unchanged') {
        for (const from of BOOKING_STATUSES) assert.equal(statusAfter(e, from), from, `${e} from ${from}`);
      } else {
        for (const from of ['pending', 'confirmed'] as const)
          assert.equal(statusAfter(e, from, 'cancelled'), to, `${e} from ${from}`);
      }
    }
  });
});

describe('guardSql: the condition of each conditional update, from the table', () => {
  const compiled = (e: BookingEvent, t?: string) => {
    const c = guardSql(e, t).compile(db);
    return [c.sql, c.parameters];
  };

  it('is false for the events that write the row, which has no state to guard', () => {
    for (const e of ['book', 'await_payment', 'await_approval'] as const)
      assert.deepEqual(compiled(e, 'r'), ['false', []], e);
  });

  it('checks the status, then the wait, then whether a payment is held', () => {
    assert.deepEqual(compiled('pay', 'r'), [
      '("r"."status" = any($1::text[]) and "r"."pending_reason" is not distinct from $2::text)',
      [['pending'], 'payment'],
    ]);
    assert.deepEqual(compiled('approve', 'r'), [
      '("r"."status" = any($1::text[]) and "r"."pending_reason" is not distinct from $2::text)',
      [['pending'], 'approval'],
    ]);
    assert.deepEqual(compiled('claim_refund', 'r'), [
      '("r"."status" = any($1::text[]) and ("r"."payment_id" is not null and "r"."amount_paise" > 0))',
      [['confirmed']],
    ]);
    assert.deepEqual(compiled('cancel', 'r'), [
      '("r"."status" = any($1::text[]) and not ("r"."payment_id" is not null and "r"."amount_paise" > 0))',
      [['pending', 'confirmed']],
    ]);
    assert.deepEqual(compiled('expire', 'r'), [
      '("r"."status" = any($1::text[]) and "r"."pending_reason" is not distinct from $2::text and not ("r"."payment_id" is not null and "r"."amount_paise" > 0))',
      [['pending'], 'payment'],
    ]);
    assert.deepEqual(compiled('complete_refund', 'r'), ['("r"."status" = any($1::text[]))', [['refunding']]]);
  });

  it('names the bare columns when no table alias is given', () => {
    assert.deepEqual(compiled('admit'), ['("status" = any($1::text[]))', [['confirmed']]]);
    assert.deepEqual(compiled('refunded_at_gateway'), [
      '("status" = any($1::text[]) and ("payment_id" is not null and "amount_paise" > 0))',
      [['confirmed']],
    ]);
  });
});

describe('stateDiagram: the table drawn as the docs show it', () => {
  it('draws one arrow per start state and end state of each event, labelled with the wait, the money and who', () => {
    assert.equal(
      stateDiagram(),
      [
        'stateDiagram-v2',
        '  [*] --> confirmed: book: key, user, system',
        '  [*] --> pending: await_payment: key, user, system',
        '  [*] --> pending: await_approval: key, user, system',
        '  [*] --> pending: await_offline_payment: key, user, system',
        '  pending --> confirmed: pay (payment): key, user, system',
        '  pending --> cancelled: lose_last_seat (payment): key, user, system',
        '  pending --> confirmed: approve (approval): user, key, staff',
        '  pending --> cancelled: reject (approval): user, key, staff',
        '  pending --> cancelled: cancel [unpaid]: user, key, staff, attendee, system',
        '  confirmed --> cancelled: cancel [unpaid]: user, key, staff, attendee, system',
        '  confirmed --> refunding: claim_refund [paid]: user, key, staff, attendee, system',
        '  refunding --> cancelled: complete_refund: user, key, staff, attendee, system',
        '  refunding --> refunded: complete_refund: user, key, staff, attendee, system',
        '  refunding --> confirmed: complete_refund: user, key, staff, attendee, system',
        '  refunding --> confirmed: release_claim: user, key, staff, attendee, system',
        '  pending --> cancelled: expire (payment) [unpaid]: system',
        '  pending --> confirmed: mark_paid (offline_payment): user, key, staff',
        '  pending --> cancelled: lapse_unpaid (offline_payment): system',
        '  confirmed --> refunded: refund_offline [unpaid]: user, key, staff',
        '  confirmed --> refunded: refunded_at_gateway [paid]: system',
        '  confirmed --> confirmed: transfer: user, key, staff, attendee',
        '  confirmed --> confirmed: admit: user, key, door_pass, staff',
      ].join('\n'),
    );
  });
});
