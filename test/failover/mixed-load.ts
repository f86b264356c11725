// The failover run's mixed load (test/failover/failover.ts): live-mode bookings on one hot event
// and spread over small ones that sell out, paid bookings confirmed through the Razorpay
// emulator (step 1 makes the gateway's order, the emulator plays the buyer, step 2 confirms),
// door admits of the hot event's tickets, and a broadcast sent while the primary is down. Every
// caller repeats a step the service refused with a 503 (its transaction rolled back), and
// records only what the service acknowledged; checkLoad then reads each acknowledged write
// back from the new primary.
import pg from 'pg';
import { sleep } from '../../src/db/embedded-process.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { call, createKey, signup, uniqueEmail, verifyFromMailFiles, type Reply } from '../helpers/http.js';
import type { RazorpayEmulator } from '../helpers/razorpay-emulator.js';

export const SPREAD_EVENTS = 20;
export const SPREAD_CAPACITY = 60;
export const PAID_CAPACITY = 150;

export interface World {
  key: string;
  hot: string;
  spread: string[];
  paid: string;
  /** An event with a few bookings, for the broadcast. */
  news: string;
}

export interface Acknowledged {
  /** Free bookings answered 201 (hot and spread events). */
  bookings: string[];
  /** The hot event's among them, in the order acknowledged: the door admits these. */
  hot: string[];
  /** Paid bookings whose step 2 answered confirmed, with the payment it confirmed. */
  payments: { registrationId: string; paymentId: string }[];
  /** Hot-event tickets the door answered admitted (201, or 200 after a refused try). */
  admits: string[];
  /** Broadcasts the service accepted. */
  broadcasts: number;
}

/** A verified organiser with a live key, allowed to publish, and the run's events, on instance `url`. */
export async function setUpWorld(url: string, dataDirs: string[], staffEmail: string): Promise<World> {
  const staff = await signup(url, { email: staffEmail });
  const org = await signup(url);
  for (const a of [staff, org]) await verifyFromMailFiles(url, dataDirs, a.email);
  const { key } = await createKey(url, org.token, { mode: 'live' });
  const grant = await call(url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
    token: staff.token,
    body: { canPublish: true },
  });
  if (grant.status !== 200) throw new Error(`publishing right: ${grant.status} ${grant.text}`);
  const api = keyApi(url, key);
  const event = (title: string, fields: Record<string, unknown>) =>
    createEvent(api, { title, startDate: '2027-02-14', ...fields }, { publish: true });
  const world: World = {
    key,
    hot: await event('Hot', { capacity: 0 }),
    spread: [],
    paid: await event('Paid', { capacity: PAID_CAPACITY, price: 250 }),
    news: await event('News', { capacity: 0 }),
  };
  for (let i = 0; i < SPREAD_EVENTS; i++)
    world.spread.push(await event(`Spread ${i}`, { capacity: SPREAD_CAPACITY }));
  for (let i = 0; i < 5; i++) {
    const r = await call(url, 'POST', `/api/v1/events/${world.news}/register`, {
      key,
      body: { name: 'Reader', email: uniqueEmail('news') },
    });
    if (r.status !== 201) throw new Error(`news booking: ${r.status} ${r.text}`);
  }
  return world;
}

export type Outcome = 'ok' | 'refused' | 'violation';

/**
 * What an answer means to a caller: `expected` statuses are acknowledgements, a 503 with
 * Retry-After a refusal to try again (after waiting as told), anything else (a 500, a dropped
 * connection) a broken promise.
 */
export async function classify(
  send: () => Promise<Reply>,
  expected: number[],
  violations: string[],
  where: string,
): Promise<{ outcome: Outcome; r?: Reply }> {
  let r: Reply;
  try {
    r = await send();
  } catch (err) {
    violations.push(`${where}: no answer (${(err as Error).message})`);
    await sleep(100);
    return { outcome: 'violation' };
  }
  if (expected.includes(r.status)) return { outcome: 'ok', r };
  if (r.status === 503 && r.headers.get('retry-after')) {
    await sleep(Math.min(1000, Number(r.headers.get('retry-after')) * 1000));
    return { outcome: 'refused', r };
  }
  violations.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
  return { outcome: 'violation', r };
}

export interface Caller {
  /** One step of this caller's kind, at instance `i`; answers when its request was sent and whether it was acknowledged. */
  step(i: number): Promise<{ sent: number; acked: boolean; refused: boolean }>;
}

/** What every caller of the load shares: the instances, the world, the gateway, what was acknowledged, the queue at the door. */
export interface LoadContext {
  urls: () => string[];
  world: World;
  rzp: RazorpayEmulator;
  acked: Acknowledged;
  violations: string[];
  door: { next: number };
}

/** One booking attempt at instance `i` (a fresh buyer each time, named from `tag`), classified. */
function booker(tag: string, { urls, world, violations }: LoadContext) {
  let n = 0;
  return async (i: number, eventId: string, expected: number[]) => {
    const sent = Date.now();
    const { outcome, r } = await classify(
      () =>
        call(urls()[i]!, 'POST', `/api/v1/events/${eventId}/register`, {
          key: world.key,
          body: { name: 'Asha Rao', email: `${tag}-${++n}@example.in` },
        }),
      expected,
      violations,
      `instance ${i} booking`,
    );
    return { sent, outcome, r };
  };
}

/**
 * The callers' kinds by number: 0, 1 and 5 book the hot event, 2 the spread events, 3 pays, 4
 * admits at the door.
 */
export function makeCaller(c: number, ctx: LoadContext): Caller {
  const { world, acked } = ctx;
  const book = booker(`failover-${c}`, ctx);
  const kind = c % 6;
  let spreadTurn = 0;
  if (kind === 2)
    return {
      async step(i) {
        const { sent, outcome, r } = await book(
          i,
          world.spread[(c + spreadTurn++) % SPREAD_EVENTS]!,
          [201, 409],
        );
        if (outcome === 'ok' && r!.status === 201) acked.bookings.push(r!.body.registrationId);
        return { sent, acked: outcome === 'ok' && r!.status === 201, refused: outcome === 'refused' };
      },
    };
  if (kind === 3) return payingCaller(c, ctx);
  if (kind === 4) return doorCaller(ctx);
  return {
    async step(i) {
      const { sent, outcome, r } = await book(i, world.hot, [201]);
      if (outcome === 'ok') {
        acked.bookings.push(r!.body.registrationId);
        acked.hot.push(r!.body.registrationId);
      }
      return { sent, acked: outcome === 'ok', refused: outcome === 'refused' };
    },
  };
}

/** Books the paid event, pays at the emulator, confirms; a refused step is sent again as it was. */
function payingCaller(c: number, ctx: LoadContext): Caller {
  const { urls, world, rzp, acked, violations } = ctx;
  const book = booker(`failover-paid-${c}`, ctx);
  let held: { registrationId: string; orderId: string; paymentId: string } | undefined;
  return {
    async step(i) {
      if (held === undefined) {
        const { sent, outcome, r } = await book(i, world.paid, [201, 409]);
        if (outcome === 'ok' && r!.status === 201) {
          const orderId = String(r!.body.orderId);
          held = { registrationId: r!.body.registrationId, orderId, paymentId: String(rzp.pay(orderId).id) };
        }
        return { sent, acked: false, refused: outcome === 'refused' };
      }
      const sent = Date.now();
      const ids = held;
      const { outcome, r } = await classify(
        () =>
          call(urls()[i]!, 'POST', `/api/v1/events/${world.paid}/register`, { key: world.key, body: ids }),
        [200],
        violations,
        `instance ${i} confirmation`,
      );
      if (outcome === 'refused') return { sent, acked: false, refused: true };
      held = undefined;
      if (outcome === 'ok' && r!.body.status === 'confirmed') {
        acked.payments.push({ registrationId: ids.registrationId, paymentId: ids.paymentId });
        return { sent, acked: true, refused: false };
      }
      if (outcome === 'ok') violations.push(`instance ${i} confirmation answered ${r!.text.slice(0, 200)}`);
      return { sent, acked: false, refused: false };
    },
  };
}

/**
 * Admits the hot event's acknowledged tickets in order, the door callers sharing one place in
 * the queue; a refused admit is sent again (so a ticket may then be admitted by one caller and
 * found in by another, as at two doors).
 */
function doorCaller({ urls, world, acked, violations, door }: LoadContext): Caller {
  let retry: string | undefined;
  return {
    async step(i) {
      const sent = Date.now();
      const ticket = retry ?? acked.hot[door.next];
      if (ticket === undefined) {
        await sleep(50);
        return { sent, acked: false, refused: false };
      }
      if (retry === undefined) door.next += 1;
      const { outcome, r } = await classify(
        () =>
          call(urls()[i]!, 'POST', `/api/v1/events/${world.hot}/check-in`, {
            key: world.key,
            body: { registrationId: ticket },
          }),
        [200, 201],
        violations,
        `instance ${i} admit`,
      );
      retry = outcome === 'refused' ? ticket : undefined;
      const admitted = outcome === 'ok' && (r!.status === 201 || r!.status === 200);
      if (admitted) acked.admits.push(ticket);
      return { sent, acked: admitted, refused: outcome === 'refused' };
    },
  };
}

/** Sends one broadcast to the news event's bookings, repeating it while refused; answers whether it was accepted. */
export async function broadcast(url: string, world: World, violations: string[]): Promise<boolean> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const body = { subject: 'Doors open at 9', message: 'See you there' };
    const preview = await classify(
      () => call(url, 'POST', `/api/v1/events/${world.news}/broadcast`, { key: world.key, body }),
      [200],
      violations,
      'broadcast preview',
    );
    if (preview.outcome === 'violation') return false;
    if (preview.outcome === 'refused') continue;
    const count = preview.r!.body.recipientCount ?? preview.r!.body.data?.recipientCount;
    const sent = await classify(
      () =>
        call(url, 'POST', `/api/v1/events/${world.news}/broadcast`, {
          key: world.key,
          body: { ...body, dryRun: false, confirmedRecipientCount: count },
        }),
      [200, 201],
      violations,
      'broadcast',
    );
    if (sent.outcome !== 'refused') return sent.outcome === 'ok';
  }
  violations.push('broadcast: refused for two minutes');
  return false;
}

/**
 * Reads every acknowledged write back from the new primary: free bookings confirmed, paid ones
 * confirmed with the payment they were confirmed with (no payment on two bookings), no event
 * sold past its capacity, every acknowledged admit in and admitted once. Answers how many
 * acknowledged writes are missing; each kind missing is a violation.
 */
export async function checkLoad(
  db: pg.Client,
  world: World,
  acked: Acknowledged,
  violations: string[],
): Promise<number> {
  const bookings = await db.query<{ id: string }>(
    `select id from registrations where id = any($1::text[]) and status = 'confirmed'`,
    [acked.bookings],
  );
  const lostBookings = acked.bookings.length - bookings.rows.length;
  if (lostBookings > 0)
    violations.push(`${lostBookings} of ${acked.bookings.length} acknowledged bookings missing`);

  const paid = await db.query<{ id: string; payment_id: string | null; status: string }>(
    `select id, payment_id, status from registrations where id = any($1::text[])`,
    [acked.payments.map((p) => p.registrationId)],
  );
  const byId = new Map(paid.rows.map((r) => [r.id, r]));
  const lostPayments = acked.payments.filter((p) => {
    const row = byId.get(p.registrationId);
    return row?.status !== 'confirmed' || row.payment_id !== p.paymentId;
  }).length;
  if (lostPayments > 0)
    violations.push(`${lostPayments} of ${acked.payments.length} acknowledged paid confirmations missing`);
  const twice = await db.query(
    `select payment_id from registrations where event_id = $1 and payment_id is not null
     group by payment_id having count(*) > 1`,
    [world.paid],
  );
  if (twice.rows.length > 0) violations.push(`${twice.rows.length} payments confirm more than one booking`);

  const capacity = new Map<string, number>([
    [world.paid, PAID_CAPACITY],
    ...world.spread.map((id) => [id, SPREAD_CAPACITY] as [string, number]),
  ]);
  const taken = await db.query<{ event_id: string; n: string }>(
    `select event_id, sum(quantity) as n from registrations
     where event_id = any($1::text[]) and status in ('confirmed', 'refunding') group by event_id`,
    [[...capacity.keys()]],
  );
  for (const r of taken.rows)
    if (Number(r.n) > capacity.get(r.event_id)!)
      violations.push(`event ${r.event_id}: ${r.n} seats confirmed of ${capacity.get(r.event_id)}`);

  const admitted = [...new Set(acked.admits)];
  const inside = await db.query<{ id: string }>(
    `select id from attendees where id = any($1::text[]) and checked_in_at is not null`,
    [admitted],
  );
  const lostAdmits = admitted.length - inside.rows.length;
  if (lostAdmits > 0) violations.push(`${lostAdmits} of ${admitted.length} acknowledged admits missing`);
  const again = await db.query(
    `select attendee_id from checkin_log where attendee_id = any($1::text[]) and action = 'admit'
     group by attendee_id having count(*) > 1`,
    [admitted],
  );
  if (again.rows.length > 0) violations.push(`${again.rows.length} tickets admitted more than once`);
  return lostBookings + lostPayments + lostAdmits;
}

/** Every instance's roster comes to show the last acknowledged admits in, within `withinMs`. */
export async function rostersCatchUp(
  urls: string[],
  world: World,
  acked: Acknowledged,
  violations: string[],
  withinMs = 30_000,
): Promise<void> {
  const last = [...new Set(acked.admits)].slice(-10);
  for (const [i, url] of urls.entries()) {
    const by = Date.now() + withinMs;
    let missing = last;
    while (missing.length > 0 && Date.now() < by) {
      const seen = await Promise.all(
        missing.map((id) =>
          call(url, 'GET', `/api/v1/events/${world.hot}/check-in?registrationId=${id}`, { key: world.key }),
        ),
      );
      missing = missing.filter((_, k) => seen[k]!.status !== 200 || seen[k]!.body.data?.checkedIn !== true);
      if (missing.length > 0) await sleep(200);
    }
    if (missing.length > 0)
      violations.push(`instance ${i}: the door still shows ${missing.length} admitted tickets out`);
  }
}
