// Races over one booking (docs/decisions/20-booking-lifecycle.md) across two service processes on one
// database: live-mode payments at the Razorpay emulator, so every refund the gateway made
// can be counted, or test-mode payments at the sandbox gateway. An in-process instance on the same database (its clock injected)
// owns the database, signs accounts up, runs the jobs and the reconciliation sweep; the
// processes run no workers. On PostgreSQL the three use a database of their own (the jobs
// and the sweep must not touch other test files' rows).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { call, createKey, signup, uniqueEmail, type Reply } from './http.js';
import { startProcess, type ServiceProcess } from './process.js';
import {
  gatewayEnv,
  startRazorpayEmulator,
  type HeldRequest,
  type RazorpayEmulator,
} from './razorpay-emulator.js';
import { startServer, type TestServer } from './server.js';
import { RAISED_LIMITS } from './limits.js';

const creds = { keyId: 'rzp_live_BookingRaces01', keySecret: 'bookingracessecret00000' };
export const WEBHOOK_SECRET = 'booking-races-webhook-secret';

export interface Bench {
  rzp: RazorpayEmulator;
  hub: TestServer;
  procs: ServiceProcess[];
  staffToken: string;
  close(): Promise<void>;
}

export async function startBench(): Promise<Bench> {
  const rzp = await startRazorpayEmulator(creds);
  const staffEmail = uniqueEmail('racestaff');
  const shared = {
    ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
    SESSION_SECRET: 'booking-races-session-secret-0123456789ab',
    SECRETS_KEY: 'booking-races-secrets-key-0123456789abcdef',
    STAFF_EMAILS: staffEmail,
    ...RAISED_LIMITS,
    EMAIL_DNS_CHECK: 'false',
    WORKERS: 'false',
    // Requests held at the emulator's gate wait for their rivals: not a gateway timeout.
    RAZORPAY_TIMEOUT_MS: '60000',
  };
  const hub = await startServer({ isolatedDatabase: true, env: shared });
  const databaseUrl = hub.deps.config.databaseUrl ?? embeddedDatabaseUrl(hub.dataDir);
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'svc-races-')));
  const procs = await Promise.all(
    dirs.map((dir) => startProcess({ ...shared, DATA_DIR: dir, DATABASE_URL: databaseUrl })),
  );
  const staffToken = (await signup(hub.url, { email: staffEmail })).token;
  return {
    rzp,
    hub,
    procs,
    staffToken,
    async close() {
      // A process that logged an error says what it was, for a failure's reader.
      for (const p of procs) if (/"level":[56]\d/.test(p.stderr())) console.log(p.stderr().slice(-4000));
      for (const p of procs) await p.stop();
      await hub.close();
      await rzp.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

export interface Organiser {
  mode: 'live' | 'test';
  userId: string;
  token: string;
  key: string;
  /** Calls the API with the organiser's key on process `i % 2`. */
  api(i: number, method: string, path: string, body?: unknown): Promise<Reply>;
}

/** A new organiser (verified, allowed to publish) with a key in `mode`: its ledger holds only this test's bookings. */
export async function newOrganiser(bench: Bench, mode: 'live' | 'test' = 'live'): Promise<Organiser> {
  const account = await signup(bench.hub.url);
  const { key } = await createKey(bench.hub.url, account.token, { mode });
  const grant = await call(bench.hub.url, 'POST', `/admin/api/accounts/${account.userId}/organiser-access`, {
    token: bench.staffToken,
    body: { canPublish: true },
  });
  if (grant.status !== 200) throw new Error(`grant failed: ${grant.status} ${grant.text}`);
  return {
    mode,
    userId: account.userId,
    token: account.token,
    key,
    api: (i, method, path, body) => call(bench.procs[i % 2]!.url, method, path, { key, body }),
  };
}

/** A published event in the organiser's mode (ticket mails off: not what these tests measure). */
export async function newEvent(
  bench: Bench,
  org: Organiser,
  fields: Record<string, unknown>,
): Promise<string> {
  const created = await org.api(0, 'POST', '/api/v1/events', {
    title: 'Race',
    description: 'x',
    startDate: '2027-03-20T10:00:00+05:30',
    ...fields,
  });
  if (created.status !== 201) throw new Error(`event: ${created.status} ${created.text}`);
  const id = created.body.data.id as string;
  const published = await org.api(1, 'PATCH', `/api/v1/events/${id}`, { status: 'published' });
  if (published.status !== 200) throw new Error(`publish: ${published.status} ${published.text}`);
  await call(bench.hub.url, 'POST', `/admin/api/events/${id}/ticket-emails`, {
    token: bench.staffToken,
    body: { enabled: false },
  });
  return id;
}

export interface Booking {
  eventId: string;
  registrationId: string;
  orderId?: string;
  paymentId?: string;
}

/** Step 1, then (for a paid event) the buyer pays at the emulator or the sandbox, then step 2 unless `confirm: false`. */
export async function book(
  bench: Bench,
  org: Organiser,
  eventId: string,
  options: { pay?: boolean; confirm?: boolean } = {},
): Promise<Booking> {
  const s = await org.api(0, 'POST', `/api/v1/events/${eventId}/register`, {
    name: 'Buyer',
    email: uniqueEmail('buyer'),
  });
  if (s.status !== 201) throw new Error(`step 1: ${s.status} ${s.text}`);
  const b: Booking = { eventId, registrationId: s.body.registrationId, orderId: s.body.orderId };
  if (!b.orderId || options.pay === false) return b;
  if (org.mode === 'live') b.paymentId = String(bench.rzp.pay(b.orderId).id);
  else
    b.paymentId = (
      await org.api(1, 'POST', '/api/v1/sandbox/payments', { orderId: b.orderId, outcome: 'success' })
    ).body.paymentId as string;
  if (options.confirm === false) return b;
  const c = await org.api(1, 'POST', `/api/v1/events/${eventId}/register`, {
    registrationId: b.registrationId,
    orderId: b.orderId,
    paymentId: b.paymentId,
  });
  if (c.status !== 200) throw new Error(`step 2: ${c.status} ${c.text}`);
  return b;
}

/** The attendee's page link (as the ticket mail gives it) and the page's cancel form token. */
export async function attendeeCancelForm(
  bench: Bench,
  org: Organiser,
  b: Booking,
): Promise<{ token: string; csrf: string }> {
  const reg = (await org.api(0, 'GET', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}`)).body
    .data;
  const token = attendeeToken(bench.hub.deps.config.secretsKey, reg.id, reg.ticketCode ?? reg.id);
  const html = await (await fetch(`${bench.procs[0]!.url}/t/${token}`)).text();
  const csrf = /action="\/t\/[^"]+\/cancel">\s*<input type="hidden" name="csrf" value="([^"]+)"/.exec(
    html,
  )?.[1];
  if (!csrf) throw new Error('the ticket page shows no cancel form');
  return { token, csrf };
}

/** A racing request's answer; `acted` says it for racers whose status does not (a notification, the sweep). */
export interface Answer {
  status: number;
  code?: string;
  text: string;
  acted?: boolean;
}

/** What the booking ends as when a racer's change is the one made: its status, the gateway's refund, the audit entry. */
export interface Effect {
  status: string;
  refundPaise: number;
  audit: RegExp[];
}

export interface Racer {
  name: string;
  effect: Effect;
  run(): Promise<Answer>;
}

const answer = (r: Reply): Answer => ({
  status: r.status,
  code: typeof r.body === 'object' ? r.body?.code : undefined,
  text: r.text.slice(0, 300),
});

/** The organiser's POST …/registrations/{id}/{action} on process `i % 2`. */
export function organiserAction(
  org: Organiser,
  b: Booking,
  i: number,
  action: string,
  effect: Effect,
  body?: unknown,
): Racer {
  return {
    name: `organiser ${action} #${i}`,
    effect,
    run: async () =>
      answer(
        await org.api(
          i,
          'POST',
          `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/${action}`,
          body,
        ),
      ),
  };
}

/** The attendee's cancel form, posted from the page to process `i % 2`. */
export function attendeeCancel(
  bench: Bench,
  form: { token: string; csrf: string },
  i: number,
  effect: Effect,
): Racer {
  const url = bench.procs[i % 2]!.url;
  return {
    name: `attendee cancel #${i}`,
    effect,
    run: async () => {
      const r = await fetch(`${url}/t/${form.token}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
        body: new URLSearchParams({ csrf: form.csrf, confirm: 'yes' }).toString(),
      });
      return { status: r.status, text: (await r.text()).replace(/\s+/g, ' ').slice(-300) };
    },
  };
}

/** Step 2 on process `i % 2`. */
export function step2(org: Organiser, b: Booking, i: number, effect: Effect): Racer {
  const body = { registrationId: b.registrationId, orderId: b.orderId, paymentId: b.paymentId };
  return {
    name: `step 2 #${i}`,
    effect,
    run: async () => answer(await org.api(i, 'POST', `/api/v1/events/${b.eventId}/register`, body)),
  };
}

/**
 * Fires the racers at once. With `hold`, the gateway requests matching it are held until
 * every racer has either answered or is waiting at the gateway, then let go together: the
 * widest overlap, whatever the implementation (a claim lets one through to the gateway).
 */
export async function race(rzp: RazorpayEmulator, racers: Racer[], hold?: RegExp): Promise<Answer[]> {
  if (!hold) return Promise.all(racers.map((r) => r.run()));
  rzp.gate(true, hold);
  const held: HeldRequest[] = [];
  let answered = 0;
  let wake = () => {};
  const runs = racers.map((r) =>
    r.run().finally(() => {
      answered++;
      wake();
    }),
  );
  void (async () => {
    for (;;) {
      held.push(await rzp.nextHeld());
      wake();
    }
  })();
  // A safety net only (an implementation that waits on a held rival would hang): not how the race is decided.
  const deadline = Date.now() + 30_000;
  while (answered + held.length < racers.length && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, 1_000).unref();
    });
  }
  rzp.gate(false);
  for (const h of held) h.release();
  return Promise.all(runs);
}

/** Runs the jobs due now (refunds of lost races) until none is left. */
export async function settle(bench: Bench): Promise<void> {
  bench.hub.clock.set(new Date(Math.max(Date.now(), bench.hub.clock.now().getTime())));
  for (let i = 0; i < 100 && (await bench.hub.deps.jobs.runOnce()) > 0; i++);
}

/** The booking's audit entries (ids), to tell the race's own apart. */
export async function auditIds(org: Organiser, b: Booking): Promise<Set<string>> {
  return new Set(
    ((await org.api(1, 'GET', `/api/v1/audit-log?targetId=${b.registrationId}`)).body.data as any[]).map(
      (e) => e.id,
    ),
  );
}
