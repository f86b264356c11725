// RazorpayX Payouts on fetch, in the style of the payments adapter (razorpay.ts):
// contacts, `vpa` fund accounts and UPI payouts, Basic auth with the service's key id
// and secret. A payout is created with `X-Payout-Idempotency` = our payout id, so a
// retried request (same key, same body) returns the payout the first one made.
import { GatewayError } from '../payments/gateway.js';
import {
  razorpayClient,
  type RazorpayCall,
  type RazorpayClientOptions,
} from '../payments/razorpay-client.js';

export interface RazorpayXOptions extends RazorpayClientOptions {
  /** The RazorpayX account the money is drawn from (RAZORPAYX_ACCOUNT_NUMBER). */
  accountNumber: string;
}

/** A payout as the gateway reports it. */
export interface GatewayPayout {
  id: string;
  status: string;
  amount: number;
  referenceId: string | null;
  utr: string | null;
  failureReason: string | null;
}

export const PAYOUT_NARRATION = 'Event proceeds';

export function toGatewayPayout(e: Record<string, unknown>): GatewayPayout {
  const details =
    e.status_details && typeof e.status_details === 'object'
      ? (e.status_details as Record<string, unknown>)
      : undefined;
  const reason =
    typeof e.failure_reason === 'string' && e.failure_reason !== ''
      ? e.failure_reason
      : typeof details?.description === 'string'
        ? details.description
        : null;
  return {
    id: String(e.id),
    status: String(e.status),
    amount: Number(e.amount),
    referenceId: typeof e.reference_id === 'string' ? e.reference_id : null,
    utr: typeof e.utr === 'string' && e.utr !== '' ? e.utr : null,
    failureReason: reason,
  };
}

/** Contact names: 3–50 of letters, digits, space and ’ - _ / ( ) . (RazorpayX's rule). */
export function contactName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9 ’\-_/().]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 50)
    .trim();
  return cleaned.length >= 3 ? cleaned : 'Organiser';
}

export class RazorpayXPayouts {
  readonly #call: RazorpayCall;
  readonly accountNumber: string;

  constructor(options: RazorpayXOptions) {
    this.#call = razorpayClient(options, 'RazorpayX');
    this.accountNumber = options.accountNumber;
  }

  async createContact(input: { name: string; email: string; referenceId: string }): Promise<string> {
    const c = await this.#call<Record<string, unknown>>('POST', '/v1/contacts', {
      name: contactName(input.name),
      email: input.email,
      type: 'vendor',
      reference_id: input.referenceId.slice(0, 40),
    });
    return String(c.id);
  }

  async createVpaFundAccount(contactId: string, address: string): Promise<string> {
    const f = await this.#call<Record<string, unknown>>('POST', '/v1/fund_accounts', {
      contact_id: contactId,
      account_type: 'vpa',
      vpa: { address },
    });
    return String(f.id);
  }

  /** The request body is a function of its inputs only, so a retry sends the same body under the same key. */
  async createPayout(input: {
    payoutId: string;
    fundAccountId: string;
    amountPaise: number;
    accountId: string;
  }): Promise<GatewayPayout> {
    const p = await this.#call<Record<string, unknown>>(
      'POST',
      '/v1/payouts',
      {
        account_number: this.accountNumber,
        fund_account_id: input.fundAccountId,
        amount: input.amountPaise,
        currency: 'INR',
        mode: 'UPI',
        purpose: 'payout',
        queue_if_low_balance: true,
        reference_id: input.payoutId,
        narration: PAYOUT_NARRATION,
        notes: { payoutId: input.payoutId, accountId: input.accountId },
      },
      { 'x-payout-idempotency': input.payoutId },
    );
    return toGatewayPayout(p);
  }

  /** null when RazorpayX does not know the id. */
  async fetchPayout(gatewayPayoutId: string): Promise<GatewayPayout | null> {
    if (!/^pout_[A-Za-z0-9]{1,40}$/.test(gatewayPayoutId)) return null;
    try {
      return toGatewayPayout(
        await this.#call<Record<string, unknown>>('GET', `/v1/payouts/${gatewayPayoutId}`),
      );
    } catch (err) {
      if (
        err instanceof GatewayError &&
        err.status === 400 &&
        /does not exist|is not a valid id/i.test(err.message)
      )
        return null;
      throw err;
    }
  }
}
