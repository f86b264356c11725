// A local emulator of Razorpay's REST API on loopback, honouring the documented
// shapes, error bodies and statuses (https://razorpay.com/docs/api/): basic auth
// (401), unknown ids (400 "The id provided does not exist"), amounts in paise (min 100),
// empty notes as [], 200 with the bare entity. Test controls play the buyer (pay an
// order) and inject failures (5xx, 4xx, delays) into the next requests.
// RazorpayX Payouts too (https://razorpay.com/docs/api/x/payouts/): contacts, vpa fund
// accounts, payouts with the mandatory X-Payout-Idempotency header (same key and body
// → the same payout; same key, other body → 400), GET of a payout, state changes the
// test drives, and signed payout notifications.
// Refunds honour X-Refund-Idempotency as Razorpay documents it (api/refunds/normal-refunds-
// idempotent): a key of 10 or more of [A-Za-z0-9_-]; the same key and body → the same refund,
// made once; the same key with another body → 400; the same key while the first is still in
// flight → 409. Keys are per payment; a refused refund binds no key.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Json = Record<string, unknown>;

export interface EmulatorRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json | undefined;
}

interface Failure {
  match: RegExp;
  times: number;
  status?: number;
  body?: Json;
  delayMs?: number;
  /** Carry the request out, then drop the connection: the caller never hears that it happened. */
  dropAnswer?: boolean;
}

export interface RazorpayEmulator {
  url: string;
  requests: EmulatorRequest[];
  orders: Map<string, Json>;
  payments: Map<string, Json>;
  plans: Map<string, Json>;
  subscriptions: Map<string, Json & { cancel_at_cycle_end?: boolean }>;
  contacts: Map<string, Json>;
  fundAccounts: Map<string, Json>;
  payouts: Map<string, Json>;
  /** Every refund made, in order (a replay of an X-Refund-Idempotency key is not a new one; a lie's phantom is not made). */
  refunds: Json[];
  /** Moves a payout to a state as the bank would (processed sets a UTR) and returns the `payout.<status>` notification body. */
  settlePayout(
    payoutId: string,
    status: 'processed' | 'reversed' | 'failed' | 'cancelled' | 'rejected' | 'queued',
    options?: { utr?: string; reason?: string },
  ): string;
  /** The buyer completes checkout: a payment for the order, captured (default) or only authorised. */
  pay(orderId: string, options?: { capture?: boolean; amount?: number; method?: string }): Json;
  /**
   * The gateway charges a subscription for its next cycle (as it does on its own schedule):
   * an order and a captured payment of the plan's amount, the subscription `active` with
   * the cycle's `current_end`; returns the payment and the `subscription.charged`
   * notification body (with `payload.payment`), for the test to deliver when it chooses.
   */
  chargeSubscription(subscriptionId: string): { payment: Json; currentEnd: number; body: string };
  /** The next `times` requests whose "METHOD /path" matches answer this way. */
  fail(
    match: RegExp,
    failure: { status?: number; body?: Json; delayMs?: number; dropAnswer?: boolean },
    times?: number,
  ): void;
  /**
   * Seeded faults on every API request from now on (reconciliation runs): with
   * probability `rate` a request fails — 503 before doing anything, the connection
   * dropped before doing anything, or done and the connection dropped before the answer
   * (the client cannot tell whether it happened). Whether a request meets a fault is a
   * hash of the seed, its "METHOD /path" and how many times that key was asked before:
   * the same requests meet the same faults whatever the interleaving.
   */
  chaos(options: ChaosOptions | undefined): void;
  /** Faults injected by chaos so far, by kind. */
  faults: Record<ChaosKind, number>;
  /**
   * While on, every API request is held (not answered, not acted on) until the test
   * releases it: the test decides the interleaving of concurrent requests. Off releases
   * whatever is held. With `match`, only requests whose "METHOD /path" matches are held.
   */
  gate(on: boolean, match?: RegExp): void;
  /** The next request held by the gate (one already waiting first). */
  nextHeld(): Promise<HeldRequest>;
  /**
   * Holds the next refund sent with an X-Refund-Idempotency key in flight: its key is taken (a
   * duplicate sent now answers 409) and the refund is made only when the test calls release().
   * `inFlight` resolves once that refund has arrived.
   */
  holdNextRefund(): RefundHold;
  /** What the lying modes (options.lies) actually did, by kind: payment or order ids. */
  lied: Record<keyof Lies, Set<string>>;
  /**
   * Razorpay's notifications for payments captured since the last call (`order.paid`,
   * then `payment.captured`), for the test to deliver late, twice, out of order or never.
   */
  takeNotifications(): EmulatorNotification[];
  close(): Promise<void>;
}

export type ChaosKind = 'error' | 'lost_request' | 'lost_answer';

export interface ChaosOptions {
  seed: number;
  rate: number;
  /** Only requests whose "METHOD /path" matches (default: all). */
  match?: RegExp;
}

export interface RefundHold {
  inFlight: Promise<void>;
  release(): void;
}

export interface HeldRequest {
  method: string;
  path: string;
  /** Lets the request go on (faults are decided then). */
  release(): void;
}

/**
 * A gateway that lies, for tests of the reconciliation run's checks only (each a fraction
 * of the requests or ids it applies to, decided by a hash of the emulator's seed):
 * - refundsNotMade: a refund is answered as processed but never made;
 * - capturesMisreported: a payment is reported (fetches, captures, notifications) as 100
 *   paise less than it captured;
 * - ordersLost: every notification and fetch of the order and its payments is lost (an
 *   unknown id, an empty list), as if the gateway had misplaced it; counted as a lie (in
 *   `lied`) once one of its payments is captured, since only then is money held.
 */
export interface Lies {
  refundsNotMade?: number;
  capturesMisreported?: number;
  ordersLost?: number;
}

/** A number in [0, 1) from a hash of its parts: the same parts, the same number. */
export function hashUnit(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('|')).digest().readUInt32BE(0) / 4294967296;
}

export interface EmulatorNotification {
  eventId: string;
  event: string;
  paymentId: string;
  body: string;
}

const now = () => Math.floor(Date.now() / 1000);
const randomId = (prefix: string) =>
  `${prefix}_${randomBytes(10)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(14, 'x')
    .slice(0, 14)}`;
const notes = (n: unknown) =>
  n && typeof n === 'object' && !Array.isArray(n) && Object.keys(n).length > 0 ? n : [];

export function errorBody(description: string, field?: string, code = 'BAD_REQUEST_ERROR'): Json {
  return {
    error: {
      code,
      description,
      source: code === 'BAD_REQUEST_ERROR' ? 'business' : 'NA',
      step: code === 'BAD_REQUEST_ERROR' ? 'payment_initiation' : 'NA',
      reason: code === 'BAD_REQUEST_ERROR' ? 'input_validation_failed' : 'NA',
      metadata: {},
      ...(field ? { field } : {}),
    },
  };
}

/** Razorpay's error body for an idempotency refusal: source, step and reason "NA". */
function idempotencyError(description: string): Json {
  return {
    error: { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} },
  };
}

/** JSON with object keys sorted at every level, to compare request bodies. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String((body.error as Json)?.description));
  }
}

const bad = (description: string, field?: string) => new HttpError(400, errorBody(description, field));
const unknownId = () => bad('The id provided does not exist');

export async function startRazorpayEmulator(
  credentials: { keyId: string; keySecret: string },
  options: {
    accountNumber?: string;
    /** Ids from a counter (and lies decided from this seed): the same calls, the same ids. */
    seed?: number;
    lies?: Lies;
  } = {},
): Promise<RazorpayEmulator> {
  let counter = 0;
  const rid =
    options.seed === undefined
      ? randomId
      : (prefix: string) => `${prefix}_${(++counter).toString(36).padStart(14, '0')}`;
  const lies = options.lies ?? {};
  const lied: Record<keyof Lies, Set<string>> = {
    refundsNotMade: new Set(),
    capturesMisreported: new Set(),
    ordersLost: new Set(),
  };
  const lieSeed = options.seed ?? 0;
  const orderLost = (orderId: unknown) =>
    lies.ordersLost !== undefined && hashUnit(lieSeed, 'lost', String(orderId)) < lies.ordersLost;
  const misreported = (paymentId: unknown) =>
    lies.capturesMisreported !== undefined &&
    hashUnit(lieSeed, 'amount', String(paymentId)) < lies.capturesMisreported;
  /** A payment as the gateway reports it (the lie about its amount, when lying). */
  const reported = (p: Json): Json => {
    if (!misreported(p.id) || !(p.status === 'captured' || p.status === 'refunded')) return p;
    lied.capturesMisreported.add(String(p.id));
    return { ...p, amount: Number(p.amount) - 100 };
  };
  const requests: EmulatorRequest[] = [];
  const failures: Failure[] = [];
  const orders = new Map<string, Json>();
  const payments = new Map<string, Json>();
  const plans = new Map<string, Json>();
  const subscriptions = new Map<string, Json & { cancel_at_cycle_end?: boolean }>();
  const contacts = new Map<string, Json>();
  const fundAccounts = new Map<string, Json>();
  const payouts = new Map<string, Json>();
  const payoutKeys = new Map<string, { body: string; payoutId: string }>();
  const expectedAuth =
    'Basic ' + Buffer.from(`${credentials.keyId}:${credentials.keySecret}`).toString('base64');

  // ---- reconciliation additions: order payments, receipt lookup, refund idempotency,
  // random faults and notifications held for the test to deliver.
  let chaos: ChaosOptions | undefined;
  const faults: Record<ChaosKind, number> = { error: 0, lost_request: 0, lost_answer: 0 };
  const askedBefore = new Map<string, number>();
  const decideFault = (key: string): ChaosKind | undefined => {
    if (!chaos || !(chaos.match ?? /./).test(key)) return undefined;
    const n = askedBefore.get(key) ?? 0;
    askedBefore.set(key, n + 1);
    if (hashUnit(chaos.seed, key, n) >= chaos.rate) return undefined;
    const r = hashUnit(chaos.seed, key, n, 'kind');
    return r < 0.4 ? 'error' : r < 0.6 ? 'lost_request' : 'lost_answer';
  };
  let gated = false;
  let gateMatch: RegExp | undefined;
  const heldQueue: HeldRequest[] = [];
  const heldWaiters: ((h: HeldRequest) => void)[] = [];
  const hold = (h: HeldRequest) => {
    const waiter = heldWaiters.shift();
    if (waiter) waiter(h);
    else heldQueue.push(h);
  };
  /** Refunds by "path key": the request's canonical body, and the refund once made (in flight until then). */
  const refundKeys = new Map<string, { body: string; refund?: Json }>();
  const refundHolds: { entered(): void; released: Promise<void> }[] = [];
  const refunds: Json[] = [];
  const notified = new Set<string>();
  const collection = (items: Json[]): Json => ({ entity: 'collection', count: items.length, items });

  /** Reads that need the query string; undefined when the request is not one of them. */
  function readRoute(method: string, path: string, query: URLSearchParams): Json | undefined {
    let m: RegExpExecArray | null;
    if (method === 'GET' && path === '/v1/orders') {
      const receipt = query.get('receipt');
      const items = [...orders.values()]
        .filter((o) => (receipt === null || o.receipt === receipt) && !orderLost(o.id))
        .reverse();
      return collection(
        items.slice(
          Number(query.get('skip') ?? 0),
          Number(query.get('skip') ?? 0) + Math.min(100, Number(query.get('count') ?? 10)),
        ),
      );
    }
    if (method === 'GET' && (m = /^\/v1\/orders\/([^/]+)\/payments$/.exec(path))) {
      if (!orders.has(m[1]!)) throw unknownId();
      if (orderLost(m[1])) return collection([]);
      return collection([...payments.values()].filter((p) => p.order_id === m![1]).map(reported));
    }
    return undefined;
  }

  /**
   * A refund under an X-Refund-Idempotency key: the first is made (after the test lets it go,
   * when held) and its answer kept; a replay with the same body answers it, another body is a
   * 400, and a duplicate while the first is in flight a 409. A refund refused frees its key.
   */
  async function refundUnderKey(path: string, key: string, body: Json, make: () => Json): Promise<Json> {
    // Razorpay documents the rule, not its refusal's wording: this description is ours.
    if (!/^[A-Za-z0-9_-]{10,}$/.test(key))
      throw bad(
        'The idempotency key must be at least 10 characters of letters, digits, hyphens and underscores.',
        'X-Refund-Idempotency',
      );
    const id = `${path} ${key}`;
    const canonical = canonicalJson(body);
    const seen = refundKeys.get(id);
    if (seen && !seen.refund)
      throw new HttpError(
        409,
        idempotencyError(
          'A request with the same idempotency key is still being processed. Retry after it completes.',
        ),
      );
    if (seen && seen.body !== canonical)
      throw new HttpError(
        400,
        idempotencyError('Different request with the same idempotency key has already been processed.'),
      );
    if (seen) return seen.refund!;
    const entry: { body: string; refund?: Json } = { body: canonical };
    refundKeys.set(id, entry);
    const hold = refundHolds.shift();
    if (hold) {
      hold.entered();
      await hold.released;
    }
    try {
      entry.refund = make();
      return entry.refund;
    } catch (err) {
      refundKeys.delete(id);
      throw err;
    }
  }

  function amountOf(body: Json, field = 'amount'): number {
    const a = body[field];
    if (a === undefined) throw bad(`The ${field} field is required.`, field);
    const n = typeof a === 'string' && /^\d+$/.test(a) ? Number(a) : a;
    if (typeof n !== 'number' || !Number.isInteger(n)) throw bad(`The ${field} must be an integer.`, field);
    return n;
  }

  function route(method: string, path: string, body: Json, headers: IncomingMessage['headers'] = {}): Json {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/contacts') {
      const name = body.name;
      if (typeof name !== 'string') throw bad('The name field is required.', 'name');
      if (
        name.length < 3 ||
        name.length > 50 ||
        !/^[a-zA-Z0-9 ’\-_/().]+$/.test(name) ||
        /[’\-_/()]$/.test(name)
      )
        throw bad('The name format is invalid.', 'name');
      if (body.type !== undefined && !['vendor', 'customer', 'employee', 'self'].includes(String(body.type)))
        throw bad(`Invalid type: ${body.type}`, 'type');
      if (typeof body.reference_id === 'string' && body.reference_id.length > 40)
        throw bad('The reference id may not be greater than 40 characters.', 'reference_id');
      const contact = {
        id: rid('cont'),
        entity: 'contact',
        name,
        contact: body.contact ?? null,
        email: body.email ?? null,
        type: body.type ?? null,
        reference_id: body.reference_id ?? null,
        batch_id: null,
        active: true,
        notes: notes(body.notes),
        created_at: now(),
      };
      contacts.set(contact.id, contact);
      return contact;
    }
    if (method === 'POST' && path === '/v1/fund_accounts') {
      if (!contacts.has(String(body.contact_id))) throw unknownId();
      if (body.account_type !== 'vpa') throw bad('The selected account type is invalid.', 'account_type');
      const address = (body.vpa as Json | undefined)?.address;
      if (
        typeof address !== 'string' ||
        address.length < 3 ||
        address.length > 100 ||
        !/^[a-zA-Z0-9.\-]+@[a-zA-Z0-9.\-]+$/.test(address)
      )
        throw bad('Invalid VPA. Please enter a valid Virtual Payment Address', 'vpa');
      const [username, handle] = address.split('@');
      const fa = {
        id: rid('fa'),
        entity: 'fund_account',
        contact_id: body.contact_id,
        account_type: 'vpa',
        vpa: { username, handle, address },
        active: true,
        batch_id: null,
        created_at: now(),
      };
      fundAccounts.set(fa.id, fa);
      return fa;
    }
    if (method === 'POST' && path === '/v1/payouts') {
      const key = headers['x-payout-idempotency'];
      if (typeof key !== 'string' || key === '')
        throw bad(
          'Idempotency key is missing. Include idempotency header and key in the request.',
          'X-Payout-Idempotency',
        );
      if (!/^[A-Za-z0-9 _-]{4,36}$/.test(key))
        throw bad('The idempotency key format is invalid.', 'X-Payout-Idempotency');
      const canonical = canonicalJson(body);
      const seen = payoutKeys.get(key);
      if (seen) {
        if (seen.body !== canonical) throw bad('Different request body sent for the same Idempotency Header');
        return payouts.get(seen.payoutId)!;
      }
      if (options.accountNumber !== undefined && body.account_number !== options.accountNumber)
        throw bad('The account number is invalid.', 'account_number');
      if (!fundAccounts.has(String(body.fund_account_id))) throw unknownId();
      const amount = amountOf(body);
      if (amount < 100) throw bad('The amount must be at least INR 1.00', 'amount');
      if (body.currency !== 'INR') throw bad('The currency field is required.', 'currency');
      if (body.mode !== 'UPI') throw bad('The selected mode is invalid.', 'mode');
      if (typeof body.purpose !== 'string') throw bad('The purpose field is required.', 'purpose');
      if (typeof body.narration === 'string' && !/^[A-Za-z0-9 ]{0,30}$/.test(body.narration))
        throw bad('The narration format is invalid.', 'narration');
      if (typeof body.reference_id === 'string' && body.reference_id.length > 40)
        throw bad('The reference id may not be greater than 40 characters.', 'reference_id');
      const payout = {
        id: rid('pout'),
        entity: 'payout',
        fund_account_id: body.fund_account_id,
        amount,
        currency: 'INR',
        notes: notes(body.notes),
        fees: 0,
        tax: 0,
        status: 'processing',
        utr: null,
        mode: 'UPI',
        purpose: body.purpose,
        reference_id: body.reference_id ?? null,
        narration: body.narration ?? null,
        batch_id: null,
        failure_reason: null,
        status_details: null,
        created_at: now(),
        fee_type: '',
      };
      payouts.set(payout.id, payout);
      payoutKeys.set(key, { body: canonical, payoutId: payout.id });
      return payout;
    }
    if (method === 'GET' && (m = /^\/v1\/payouts\/([^/]+)$/.exec(path))) {
      if (!m[1]!.startsWith('pout_')) throw bad(`${m[1]} is not a valid id`);
      const p = payouts.get(m[1]!);
      if (!p) throw unknownId();
      return p;
    }
    if (method === 'POST' && path === '/v1/orders') {
      const amount = amountOf(body);
      if (amount < 100) throw bad('The amount must be at least INR 1.00', 'amount');
      if (typeof body.receipt === 'string' && body.receipt.length > 40)
        throw bad('The receipt may not be greater than 40 characters.', 'receipt');
      const order = {
        amount,
        amount_due: amount,
        amount_paid: 0,
        attempts: 0,
        created_at: now(),
        currency: body.currency ?? 'INR',
        entity: 'order',
        id: rid('order'),
        notes: notes(body.notes),
        offer_id: null,
        receipt: body.receipt ?? null,
        status: 'created',
      };
      orders.set(order.id, order);
      return order;
    }
    if (method === 'GET' && (m = /^\/v1\/orders\/([^/]+)$/.exec(path))) {
      const order = orders.get(m[1]!);
      if (!order || orderLost(order.id)) throw unknownId();
      return order;
    }
    if (method === 'GET' && (m = /^\/v1\/payments\/([^/]+)$/.exec(path))) {
      if (!m[1]!.startsWith('pay_')) throw bad(`${m[1]} is not a valid id`);
      const p = payments.get(m[1]!);
      if (!p || orderLost(p.order_id)) throw unknownId();
      return reported(p);
    }
    if (method === 'POST' && (m = /^\/v1\/payments\/([^/]+)\/capture$/.exec(path))) {
      const p = payments.get(m[1]!);
      if (!p) throw unknownId();
      const amount = amountOf(body);
      if (p.status === 'captured') throw bad('This payment has already been captured');
      if (p.status !== 'authorized')
        throw bad('Only payments which have been authorized and not yet captured can be captured');
      if (amount !== p.amount) throw bad('Capture amount must be equal to the amount authorized', 'amount');
      if ((body.currency ?? 'INR') !== p.currency)
        throw bad('Capture request currency must be same as payment currency', 'currency');
      Object.assign(p, {
        status: 'captured',
        captured: true,
        fee: Math.round(Number(p.amount) * 0.02),
        tax: 0,
      });
      const order = orders.get(String(p.order_id));
      if (order) Object.assign(order, { status: 'paid', amount_paid: p.amount, amount_due: 0 });
      if (orderLost(p.order_id)) lied.ordersLost.add(String(p.order_id));
      return reported(p);
    }
    if (method === 'POST' && (m = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path))) {
      const p = payments.get(m[1]!);
      if (!p) throw unknownId();
      const left = Number(p.amount) - Number(p.amount_refunded);
      if (p.status === 'refunded' || left <= 0) throw bad('The payment has been fully refunded already');
      const amount = body.amount === undefined ? left : amountOf(body);
      if (p.status !== 'captured' || amount > left)
        throw bad('The refund amount provided is greater than amount captured', 'amount');
      const refunded = Number(p.amount_refunded) + amount;
      const phantom =
        lies.refundsNotMade !== undefined && hashUnit(lieSeed, 'refund', String(p.id)) < lies.refundsNotMade;
      if (phantom) lied.refundsNotMade.add(String(p.id));
      else
        Object.assign(p, {
          amount_refunded: refunded,
          refund_status: refunded === p.amount ? 'full' : 'partial',
          status: refunded === p.amount ? 'refunded' : 'captured',
        });
      const refund = {
        id: rid('rfnd'),
        entity: 'refund',
        amount,
        currency: p.currency,
        payment_id: p.id,
        notes: notes(body.notes),
        receipt: null,
        acquirer_data: { arn: null },
        created_at: now(),
        batch_id: null,
        status: 'processed',
        speed_processed: 'normal',
        speed_requested: 'normal',
      };
      if (!phantom) refunds.push(refund);
      return refund;
    }
    if (method === 'POST' && path === '/v1/plans') {
      for (const f of ['period', 'interval', 'item'])
        if (body[f] === undefined) throw bad(`The ${f} field is required.`, f);
      if (!['daily', 'weekly', 'monthly', 'yearly'].includes(String(body.period)))
        throw bad('Invalid argument for period passed', 'period');
      const item = body.item as Json;
      if (!item.name) throw bad('The name field is required.', 'name');
      const amount = amountOf(item);
      if (amount < 100) throw bad('The amount must be at least INR 1.00', 'amount');
      const plan = {
        id: rid('plan'),
        entity: 'plan',
        interval: body.interval,
        period: body.period,
        item: {
          id: rid('item'),
          active: true,
          name: item.name,
          description: item.description ?? null,
          amount,
          unit_amount: amount,
          currency: item.currency ?? 'INR',
          type: 'plan',
        },
        notes: notes(body.notes),
        created_at: now(),
      };
      plans.set(plan.id, plan);
      return plan;
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      if (body.plan_id === undefined) throw bad('The plan id field is required.', 'plan_id');
      if (body.total_count === undefined) throw bad('The total count field is required.', 'total_count');
      if (!plans.has(String(body.plan_id))) throw unknownId();
      const id = rid('sub');
      const sub = {
        id,
        entity: 'subscription',
        plan_id: body.plan_id,
        customer_email: null,
        status: 'created',
        current_start: null,
        current_end: null,
        ended_at: null,
        quantity: 1,
        notes: notes(body.notes),
        charge_at: null,
        start_at: null,
        end_at: null,
        auth_attempts: 0,
        total_count: body.total_count,
        paid_count: 0,
        customer_notify: body.customer_notify ?? true,
        created_at: now(),
        expire_by: null,
        short_url: `https://rzp.io/i/${id.slice(4, 12)}`,
        has_scheduled_changes: false,
        change_scheduled_at: null,
        source: 'api',
        remaining_count: body.total_count,
      };
      subscriptions.set(id, sub);
      return sub;
    }
    if (method === 'GET' && (m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const s = subscriptions.get(m[1]!);
      if (!s) throw unknownId();
      return s;
    }
    if (method === 'POST' && (m = /^\/v1\/subscriptions\/([^/]+)\/cancel$/.exec(path))) {
      const s = subscriptions.get(m[1]!);
      if (!s) throw unknownId();
      if (['cancelled', 'completed', 'expired'].includes(String(s.status)))
        throw bad(`Subscription is not cancellable in ${s.status} status.`, 'status');
      const atEnd =
        body.cancel_at_cycle_end === true ||
        body.cancel_at_cycle_end === 1 ||
        body.cancel_at_cycle_end === '1';
      if (atEnd) {
        // Per reports the entity comes back apparently unchanged; the cancel is kept internally.
        s.cancel_at_cycle_end = true;
        return s;
      }
      Object.assign(s, { status: 'cancelled', ended_at: now(), charge_at: null });
      return s;
    }
    throw bad('The requested URL was not found on the server.');
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Json | undefined;
      try {
        body = raw === '' ? undefined : (JSON.parse(raw) as Json);
      } catch {
        body = undefined;
      }
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0]!;
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
      requests.push({ method, path, headers: req.headers, body });
      const send = (status: number, payload: Json) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const answer = () => {
        const failure = failures.find((f) => f.times > 0 && f.match.test(`${method} ${path}`));
        const dropAnswer = failure?.dropAnswer === true;
        if (failure) {
          failure.times--;
          if (failure.status)
            return send(
              failure.status,
              failure.body ??
                errorBody(
                  'We are facing some trouble completing your request at the moment. Please try again shortly.',
                  undefined,
                  'SERVER_ERROR',
                ),
            );
        }
        if (req.headers.authorization !== expectedAuth) {
          return send(
            401,
            errorBody(
              req.headers.authorization
                ? 'Authentication failed'
                : 'Please provide your api key for authentication purposes.',
            ),
          );
        }
        const fault = decideFault(`${method} ${path}`);
        if (fault) faults[fault]++;
        if (fault === 'error')
          return send(
            503,
            errorBody(
              'We are facing some trouble completing your request at the moment. Please try again shortly.',
              undefined,
              'SERVER_ERROR',
            ),
          );
        if (fault === 'lost_request') return void req.socket.destroy();
        const make = () => readRoute(method, path, query) ?? route(method, path, body ?? {}, req.headers);
        const refundKey = req.headers['x-refund-idempotency'];
        const keyed =
          method === 'POST' && /^\/v1\/payments\/[^/]+\/refund$/.test(path) && typeof refundKey === 'string';
        const result = keyed
          ? refundUnderKey(path, refundKey, body ?? {}, make)
          : new Promise<Json>((resolve) => resolve(make()));
        result.then(
          (json) => {
            if (fault === 'lost_answer' || dropAnswer) return void req.socket.destroy();
            send(200, json);
          },
          (err: unknown) => {
            if (err instanceof HttpError) send(err.status, err.body);
            else send(500, errorBody('internal', undefined, 'SERVER_ERROR'));
          },
        );
      };
      const go = () => {
        const delayed = failures.find((f) => f.times > 0 && f.delayMs && f.match.test(`${method} ${path}`));
        if (delayed) {
          delayed.times--;
          setTimeout(answer, delayed.delayMs).unref();
        } else answer();
      };
      if (gated && (gateMatch === undefined || gateMatch.test(`${method} ${path}`)))
        hold({ method, path, release: go });
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const emulator: RazorpayEmulator = {
    url: `http://127.0.0.1:${port}`,
    requests,
    orders,
    payments,
    plans,
    subscriptions,
    contacts,
    fundAccounts,
    payouts,
    refunds,
    settlePayout(payoutId, status, o = {}) {
      const p = payouts.get(payoutId);
      if (!p) throw new Error(`no payout ${payoutId}`);
      const utr =
        status === 'processed'
          ? (o.utr ??
            (p.utr as string | null) ??
            (options.seed === undefined ? `UTR${randomBytes(6).toString('hex').toUpperCase()}` : rid('UTR')))
          : p.utr;
      const failed = ['reversed', 'failed', 'cancelled', 'rejected'].includes(status);
      Object.assign(p, {
        status,
        utr,
        failure_reason: failed ? (o.reason ?? `payout ${status}`) : null,
        status_details: failed
          ? {
              description: o.reason ?? `payout ${status}`,
              source: 'beneficiary_bank',
              reason: `payout_${status}`,
            }
          : { description: null, source: null, reason: `payout_${status}` },
      });
      return payoutEvent(`payout.${status}`, p);
    },
    pay(orderId, options = {}) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const capture = options.capture ?? true;
      const amount = options.amount ?? Number(order.amount);
      const payment: Json = {
        id: rid('pay'),
        entity: 'payment',
        amount,
        currency: order.currency,
        status: capture ? 'captured' : 'authorized',
        order_id: orderId,
        invoice_id: null,
        international: false,
        method: options.method ?? 'upi',
        amount_refunded: 0,
        refund_status: null,
        captured: capture,
        description: null,
        card_id: null,
        bank: null,
        wallet: null,
        vpa: 'success@razorpay',
        email: 'buyer@example.in',
        contact: '+919000090000',
        notes: [],
        fee: capture ? Math.round(amount * 0.02) : null,
        tax: capture ? 0 : null,
        error_code: null,
        error_description: null,
        created_at: now(),
      };
      payments.set(String(payment.id), payment);
      // A lost order is a lie that matters once the gateway holds its money: an authorised
      // payment nobody can capture moves nothing, and there is nothing to find.
      if (capture && orderLost(orderId)) lied.ordersLost.add(orderId);
      Object.assign(order, {
        attempts: Number(order.attempts) + 1,
        status: capture ? 'paid' : 'attempted',
        ...(capture ? { amount_paid: amount, amount_due: 0 } : {}),
      });
      return payment;
    },
    chargeSubscription(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      if (['cancelled', 'completed', 'expired'].includes(String(sub.status)))
        throw new Error(`subscription ${subscriptionId} is ${sub.status}: it is not charged`);
      const plan = plans.get(String(sub.plan_id))!;
      const item = plan.item as Json;
      const start = typeof sub.current_end === 'number' ? sub.current_end : now();
      const days =
        plan.period === 'weekly' ? 7 : plan.period === 'yearly' ? 365 : plan.period === 'daily' ? 1 : 30;
      const currentEnd = start + days * Number(plan.interval ?? 1) * 86_400;
      const order = {
        amount: item.amount,
        amount_due: 0,
        amount_paid: item.amount,
        attempts: 0,
        created_at: now(),
        currency: item.currency,
        entity: 'order',
        id: rid('order'),
        notes: [],
        offer_id: null,
        receipt: null,
        status: 'created',
      };
      orders.set(order.id, order);
      const payment = emulator.pay(order.id);
      Object.assign(sub, {
        status: 'active',
        current_start: start,
        current_end: currentEnd,
        charge_at: currentEnd,
        paid_count: Number(sub.paid_count) + 1,
        remaining_count: Number(sub.total_count) - Number(sub.paid_count) - 1,
      });
      // Subscription notifications carry the payment with `captured` as the string "1".
      const body = JSON.parse(subscriptionEvent('charged', sub)) as Json;
      body.contains = ['subscription', 'payment'];
      (body.payload as Json).payment = { entity: { ...payment, captured: '1' } };
      return { payment, currentEnd, body: JSON.stringify(body) };
    },
    fail(match, failure, times = 1) {
      failures.push({ match, times, ...failure });
    },
    chaos(o) {
      chaos = o;
    },
    faults,
    gate(on, match) {
      gated = on;
      gateMatch = on ? match : undefined;
      if (on) return;
      // Whoever still waits for a held request gives up; what is held goes on.
      heldWaiters.length = 0;
      for (const h of heldQueue.splice(0)) h.release();
    },
    nextHeld() {
      const h = heldQueue.shift();
      return h ? Promise.resolve(h) : new Promise<HeldRequest>((resolve) => heldWaiters.push(resolve));
    },
    holdNextRefund() {
      let release!: () => void;
      let entered!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const inFlight = new Promise<void>((resolve) => (entered = resolve));
      refundHolds.push({ entered, released });
      return { inFlight, release };
    },
    lied,
    takeNotifications() {
      const out: EmulatorNotification[] = [];
      for (const p of payments.values()) {
        if (notified.has(String(p.id)) || !(p.status === 'captured' || p.status === 'refunded')) continue;
        notified.add(String(p.id));
        if (orderLost(p.order_id)) continue;
        const order = orders.get(String(p.order_id));
        const snapshot = {
          ...reported(p),
          status: 'captured',
          captured: true,
          amount_refunded: 0,
          refund_status: null,
        };
        if (order)
          out.push({
            eventId: rid('evt'),
            event: 'order.paid',
            paymentId: String(p.id),
            body: orderPaidEvent({ ...order, status: 'paid' }, snapshot),
          });
        out.push({
          eventId: rid('evt'),
          event: 'payment.captured',
          paymentId: String(p.id),
          body: paymentCapturedEvent(snapshot),
        });
      }
      return out;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return emulator;
}

/** Razorpay's webhook signature: lowercase hex HMAC-SHA256 of the exact body bytes. */
export function signWebhook(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** An `order.paid` notification shaped like Razorpay's documented sample. */
export function orderPaidEvent(
  order: Json,
  payment: Json,
  options: { capturedAsString?: boolean } = {},
): string {
  const p = options.capturedAsString ? { ...payment, captured: '1' } : payment;
  return JSON.stringify({
    entity: 'event',
    account_id: 'acc_BFQ7uQEaa7j2z7',
    event: 'order.paid',
    contains: ['payment', 'order'],
    payload: { payment: { entity: p }, order: { entity: order } },
    created_at: now(),
  });
}

export function paymentCapturedEvent(payment: Json): string {
  return JSON.stringify({
    entity: 'event',
    account_id: 'acc_BFQ7uQEaa7j2z7',
    event: 'payment.captured',
    contains: ['payment'],
    payload: { payment: { entity: payment } },
    created_at: now(),
  });
}

export function subscriptionEvent(event: string, subscription: Json, extra: Json = {}): string {
  return JSON.stringify({
    entity: 'event',
    account_id: 'acc_BFQ7uQEaa7j2z7',
    event: `subscription.${event}`,
    contains: ['subscription'],
    payload: { subscription: { entity: { ...subscription, ...extra } } },
    created_at: now(),
  });
}

/** A RazorpayX payout notification, shaped like the documented envelope. */
export function payoutEvent(event: string, payout: Json): string {
  return JSON.stringify({
    entity: 'event',
    account_id: 'acc_BFQ7uQEaa7j2z7',
    event,
    contains: ['payout'],
    payload: { payout: { entity: { ...payout } } },
    created_at: now(),
  });
}

/** The service's settings for talking to this emulator as its live gateway. */
export function gatewayEnv(
  rzp: RazorpayEmulator,
  creds: { keyId: string; keySecret: string },
  webhookSecret?: string,
): Record<string, string> {
  return {
    RAZORPAY_KEY_ID: creds.keyId,
    RAZORPAY_KEY_SECRET: creds.keySecret,
    RAZORPAY_API_URL: rzp.url,
    ...(webhookSecret === undefined ? {} : { RAZORPAY_WEBHOOK_SECRET: webhookSecret }),
  };
}
