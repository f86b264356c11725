// The payout state machine as a pure function: what one report from RazorpayX (or the
// sandbox) changes on a payout row, and when the amount is credited back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PayoutStatus } from '../../src/db/database.js';
import {
  canMove,
  creditsBack,
  payoutStateChange,
  statusFor,
  type PayoutState,
} from '../../src/modules/payouts/payout-state.js';

const STATUSES: PayoutStatus[] = ['processing', 'processed', 'failed', 'cancelled', 'reversed'];
const row = (over: Partial<PayoutState> = {}): PayoutState => ({
  status: 'processing',
  gateway_payout_id: null,
  gateway_status: null,
  utr: null,
  ...over,
});

describe('payout moves', () => {
  it('maps every gateway status, anything unknown still processing', () => {
    const map: Record<string, PayoutStatus> = {
      processed: 'processed',
      reversed: 'reversed',
      failed: 'failed',
      rejected: 'failed',
      cancelled: 'cancelled',
      queued: 'processing',
      pending: 'processing',
      processing: 'processing',
      '': 'processing',
    };
    for (const [gateway, ours] of Object.entries(map)) assert.equal(statusFor(gateway), ours, gateway);
  });

  it('allows exactly: processing to any other state, and processed to reversed', () => {
    const allowed = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`),
    );
    assert.deepEqual(allowed, [
      'processing→processed',
      'processing→failed',
      'processing→cancelled',
      'processing→reversed',
      'processed→reversed',
    ]);
  });

  it('credits back failed, cancelled and reversed payouts only', () => {
    assert.deepEqual(STATUSES.filter(creditsBack), ['failed', 'cancelled', 'reversed']);
  });
});

describe('payoutStateChange', () => {
  it('a processing payout that is paid: status, gateway status and UTR, no credit', () => {
    assert.deepEqual(
      payoutStateChange(row({ gateway_payout_id: 'pout_1' }), {
        status: 'processed',
        gatewayPayoutId: 'pout_1',
        gatewayStatus: 'processed',
        utr: 'UTR1',
        failureReason: 'ignored when paid',
      }),
      {
        set: { status: 'processed', gateway_status: 'processed', utr: 'UTR1' },
        changed: true,
        creditBack: false,
      },
    );
  });

  it('a failure moves the status, keeps the reason and credits the amount back', () => {
    assert.deepEqual(
      payoutStateChange(row(), {
        status: 'failed',
        gatewayPayoutId: 'pout_2',
        gatewayStatus: 'rejected',
        failureReason: 'invalid VPA',
      }),
      {
        set: {
          gateway_payout_id: 'pout_2',
          status: 'failed',
          gateway_status: 'rejected',
          failure_reason: 'invalid VPA',
        },
        changed: true,
        creditBack: true,
      },
    );
    for (const status of ['cancelled', 'reversed'] as const) {
      assert.equal(payoutStateChange(row(), { status }).creditBack, true, status);
      assert.deepEqual(payoutStateChange(row(), { status }).set, { status }, status);
    }
  });

  it('a reversal after payment credits back; the UTR stays the first one', () => {
    assert.deepEqual(
      payoutStateChange(row({ status: 'processed', utr: 'UTR1', gateway_payout_id: 'pout_1' }), {
        status: 'reversed',
        gatewayPayoutId: 'pout_9',
        utr: 'UTR2',
        gatewayStatus: 'reversed',
        failureReason: 'account closed',
      }),
      {
        set: { status: 'reversed', gateway_status: 'reversed', failure_reason: 'account closed' },
        changed: true,
        creditBack: true,
      },
    );
  });

  it('a move that is not allowed changes nothing and credits nothing', () => {
    for (const status of ['failed', 'cancelled'] as const) {
      // A late UTR for a payout that was never paid is noise.
      assert.deepEqual(
        payoutStateChange(row({ status, gateway_payout_id: 'pout_1', gateway_status: status }), {
          status: 'processed',
          gatewayPayoutId: 'pout_1',
          gatewayStatus: 'processed',
          utr: 'LATE',
        }),
        {
          set: {},
          changed: false,
          creditBack: false,
        },
        status,
      );
    }
    assert.deepEqual(
      payoutStateChange(row({ status: 'processed', gateway_status: 'processed', utr: 'UTR1' }), {
        status: 'failed',
        gatewayStatus: 'failed',
      }),
      { set: {}, changed: false, creditBack: false },
    );
    assert.deepEqual(
      payoutStateChange(row({ status: 'reversed', utr: 'UTR1' }), {
        status: 'processed',
        gatewayStatus: 'processed',
        utr: 'UTR2',
      }),
      { set: {}, changed: false, creditBack: false },
    );
    assert.deepEqual(
      payoutStateChange(row({ status: 'reversed' }), { status: 'reversed' }),
      { set: {}, changed: false, creditBack: false },
      'a second reversal credits nothing',
    );
  });

  it('a UTR first seen on a paid payout is kept; a processing one takes it too', () => {
    assert.deepEqual(
      payoutStateChange(row({ status: 'processed', gateway_status: 'processed' }), {
        status: 'processed',
        utr: 'UTR1',
      }),
      { set: { utr: 'UTR1' }, changed: true, creditBack: false },
    );
    assert.deepEqual(payoutStateChange(row(), { status: 'processing', utr: 'UTR0' }), {
      set: { utr: 'UTR0' },
      changed: true,
      creditBack: false,
    });
    assert.deepEqual(payoutStateChange(row({ status: 'reversed' }), { status: 'reversed', utr: 'UTR3' }), {
      set: { utr: 'UTR3' },
      changed: true,
      creditBack: false,
    });
  });

  it('the gateway id is kept when first seen, never replaced', () => {
    assert.deepEqual(payoutStateChange(row(), { status: 'processing', gatewayPayoutId: 'pout_1' }), {
      set: { gateway_payout_id: 'pout_1' },
      changed: true,
      creditBack: false,
    });
    assert.deepEqual(
      payoutStateChange(row({ gateway_payout_id: 'pout_1' }), {
        status: 'processing',
        gatewayPayoutId: 'pout_2',
      }),
      { set: {}, changed: false, creditBack: false },
    );
    assert.deepEqual(payoutStateChange(row(), { status: 'processing', gatewayPayoutId: '' }), {
      set: {},
      changed: false,
      creditBack: false,
    });
  });

  it('a processing payout follows the gateway status while it stays processing', () => {
    assert.deepEqual(
      payoutStateChange(row({ gateway_status: 'queued' }), {
        status: 'processing',
        gatewayStatus: 'pending',
      }),
      { set: { gateway_status: 'pending' }, changed: true, creditBack: false },
    );
    assert.deepEqual(
      payoutStateChange(row({ gateway_status: 'queued' }), { status: 'processing', gatewayStatus: 'queued' }),
      { set: {}, changed: false, creditBack: false },
    );
    assert.deepEqual(
      payoutStateChange(row({ gateway_status: 'queued' }), { status: 'processing', gatewayStatus: '' }),
      { set: {}, changed: false, creditBack: false },
    );
    assert.deepEqual(
      payoutStateChange(row({ status: 'processed', gateway_status: 'processed' }), {
        status: 'processed',
        gatewayStatus: 'queued',
      }),
      { set: {}, changed: false, creditBack: false },
      'a final payout keeps its gateway status',
    );
  });

  it('a move without a gateway status or reason writes the status alone', () => {
    assert.deepEqual(
      payoutStateChange(row(), { status: 'failed', gatewayStatus: '', failureReason: '', utr: '' }),
      { set: { status: 'failed' }, changed: true, creditBack: true },
    );
  });

  it('cuts stored text to its column: UTR 64, gateway status 40, reason 500', () => {
    const c = payoutStateChange(row(), {
      status: 'failed',
      gatewayStatus: 'g'.repeat(41),
      failureReason: 'r'.repeat(501),
      utr: 'u'.repeat(65),
    });
    assert.equal(c.set.gateway_status, 'g'.repeat(40));
    assert.equal(c.set.failure_reason, 'r'.repeat(500));
    assert.equal(c.set.utr, 'u'.repeat(64));
    const p = payoutStateChange(row({ gateway_status: 'queued' }), {
      status: 'processing',
      gatewayStatus: 'p'.repeat(41),
    });
    assert.equal(p.set.gateway_status, 'p'.repeat(40));
  });
});
