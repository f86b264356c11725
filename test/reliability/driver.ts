// The reconciliation run: a seeded, randomised mix of paid bookings, memberships and
// payouts against two service processes on one PostgreSQL database and the Razorpay
// emulator (RazorpayX too), with gateway faults, notifications delivered late, twice, out
// of order or never, a SIGKILL of one process mid-request, the reconciliation sweep at
// seeded points, then money checks that read each side on its own: the gateway's books,
// the service's bookings and periods, and the ledger's entries.
//
// Reproducible: the same seed gives the same operations and the same figures.
// - Every choice comes from the seed: operations, buyers' emails, which process serves a
//   request, the emulator's ids (a counter), and its faults (a hash of the seed, the
//   request's "METHOD /path" and how often that key was asked before).
// - Operations run one at a time. Inside an operation that races requests (duplicate
//   step 2s, a cancel racing step 2, …) the emulator holds every gateway request until the
//   driver releases it, so only one request moves at any moment and the seed picks the
//   interleaving point.
// - The service processes run no workers and never sweep (WORKERS=false,
//   RECONCILE_EVERY_SECONDS=0): a worker instance inside the driver, on a clock of its own
//   that moves a second per operation, runs the jobs after every operation and the sweep
//   at seeded points — an operator's topology where the sweep runs elsewhere.
// - The SIGKILL lands while the victim's order create is held at the emulator; the
//   emulator then carries it out (the order exists, the service never heard).
// - Racing mode (`racing: true`, RECONCILE_RACING=1; racing.ts) adds groups of concurrent
//   changes to one booking whose gateway requests are released together: which request of
//   a group wins is a real race, so only the checks, not every figure, repeat with the seed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { EVENT_SCOPE, PAID_SCOPE, tierScope } from '../../src/modules/events/events.service.js';
import { checkLedger } from '../../src/modules/ledger/ledger-check.service.js';
import { sweep, type SweepSummary } from '../../src/modules/reconciliation/reconcile.service.js';
import { ManualClock } from '../../src/lib/clock.js';
import { call, createKey, signup, verifyFromMailFiles } from '../helpers/http.js';
import { pick, seededRandom, type Random } from '../helpers/prng.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import {
  signWebhook,
  startRazorpayEmulator,
  type EmulatorNotification,
  type HeldRequest,
  type Lies,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import {
  emptyRaceFigures,
  RACE_EVENTS,
  raceKinds,
  runRace,
  type RaceEvent,
  type RaceFigures,
  type RaceHarness,
} from './racing.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

export interface RunOptions {
  operations: number;
  seed: number;
  /** postgres://… of a server where the run may create and drop its own database. */
  databaseUrl: string;
  /** Probability that a gateway request meets a fault. */
  faultRate?: number;
  /** Control run: no sweep anywhere, during or after the run; it must end with mismatches. */
  control?: boolean;
  /** A lying gateway (tests of the checks only). */
  lies?: Lies;
  /** Racing mode (racing.ts): groups of concurrent changes to one booking, released together. */
  racing?: boolean;
  /** Racing mode: the share of operations followed by a racing group (default 0.25). */
  raceRate?: number;
  /** Fail the run unless these minimums hold (default on; the lying-gateway runs are short). */
  minimums?: boolean;
  log?: (line: string) => void;
}

export interface MoneyLine {
  account: string;
  mode: string;
  product: 'tickets' | 'memberships';
  /** The gateway emulator's captured − refunded, paise. */
  gatewayNet: number;
  /** What the service holds: confirmed bookings and membership periods, and what cancellations kept (keptPaise), paise. */
  serviceGross: number;
  /** Of serviceGross, what cancellations under a fee-keeping policy kept. */
  keptPaise: number;
  /** The ledger's sales − refunds, paise. */
  ledgerNet: number;
}

export interface RunFigures {
  seed: number;
  control: boolean;
  racing: boolean;
  operations: number;
  byKind: Record<string, number>;
  faults: Record<string, number>;
  orders: number;
  payments: number;
  refunds: number;
  paidAtGateway: number;
  confirmedBookings: number;
  confirmedPeriods: number;
  payouts: {
    requested: number;
    processed: number;
    reversed: number;
    failed: number;
    gatewayProcessedPaise: number;
    ledgerPaise: number;
  };
  money: MoneyLine[];
  feeEntriesChecked: number;
  sweeps: number;
  sweepTotals: Omit<SweepSummary, 'ran'>;
  /** Interleavings where a request neither finished nor reached the gateway in 60 s (released at once: the run is then not exact). */
  stalls: number;
  /** Racing mode: the groups raced and how their requests were answered. */
  races: RaceFigures;
  /** What a lying gateway lied about: payment (or order) ids and their orders. */
  lied: Record<string, { id: string; orderId: string }[]>;
  mismatches: string[];
  seconds: number;
}

const creds = { keyId: 'rzp_live_ReconcileRun01', keySecret: 'reconcilerunsecret000000' };
const WEBHOOK_SECRET = 'reconcile-run-webhook-secret';
const ACCOUNT_NUMBER = '7878780080316316';

type Kind =
  | 'book_pay_step2'
  | 'book_paid_twice'
  | 'book_duplicate_step2'
  | 'book_authorised'
  | 'book_browser_closed'
  | 'book_abandoned'
  | 'book_cancel_race'
  | 'book_refund_race'
  | 'end_booking'
  | 'member_pay_confirm'
  | 'member_browser_closed'
  | 'member_cancel_race'
  | 'deliver_notifications'
  | 'promo_limit_booking'
  | 'repeat_subscribe'
  | 'delete_event'
  | 'payout'
  | 'settle_payout'
  | 'kill_process';

export async function createDatabase(
  baseUrl: string,
  seed: number,
): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(baseUrl);
  const name = `${base.pathname.slice(1) || 'svc'}_reconcile_${seed}_${process.pid}_${Date.now()}`;
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

const emptySweep = (): Omit<SweepSummary, 'ran'> => ({
  checked: 0,
  confirmed: 0,
  captured: 0,
  refunded: 0,
  expired: 0,
  endedRefunded: 0,
  claimsFinished: 0,
  orphansFound: 0,
  settled: 0,
  errors: 0,
});

export async function runReconciliation(options: RunOptions): Promise<RunFigures> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const faultRate = options.faultRate ?? 0.06;
  const control = options.control ?? false;
  const racing = options.racing ?? false;
  const top = seededRandom(options.seed);
  // Racing mode draws from a stream of its own: the usual operations are those of the same seed without it.
  const raceRandom = seededRandom(options.seed ^ 0x7ace);
  const rzp: RazorpayEmulator = await startRazorpayEmulator(creds, {
    accountNumber: ACCOUNT_NUMBER,
    seed: options.seed,
    ...(options.lies ? { lies: options.lies } : {}),
  });
  const db = await createDatabase(options.databaseUrl, options.seed);
  const dirs: string[] = [];
  let emails = 0;
  const email = (tag: string) => `${tag}-${++emails}@example.in`;
  const staffEmail = email('staff');
  const env = (dir: string): Record<string, string> => ({
    DATABASE_URL: db.url,
    DATA_DIR: dir,
    SESSION_SECRET: 'reconcile-run-session-secret-0123456789abcdef',
    SECRETS_KEY: 'reconcile-run-secrets-key-0123456789abcdefgh',
    ...RAISED_LIMITS,
    EMAIL_DNS_CHECK: 'false',
    LOG_LEVEL: 'error',
    STAFF_EMAILS: staffEmail,
    RAZORPAY_KEY_ID: creds.keyId,
    RAZORPAY_KEY_SECRET: creds.keySecret,
    RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    RAZORPAY_API_URL: rzp.url,
    RAZORPAYX_ACCOUNT_NUMBER: ACCOUNT_NUMBER,
    PAYOUT_CLEARING_DAYS: '0',
    // Faults drop the connection at once, so no request waits for a timeout; a request
    // held at the emulator while another moves must never time out, however loaded the
    // machine (the driver's own stall guard is 60 s).
    RAZORPAY_TIMEOUT_MS: '120000',
    // No memory of full events: whether a booking is refused must not depend on how many
    // milliseconds passed since another process saw the event full.
    SOLD_OUT_MEMORY_MS: '0',
    // No process works or sweeps on its own: the driver's worker instance does, at seeded points.
    WORKERS: 'false',
    RECONCILE_EVERY_SECONDS: '0',
    RECONCILE_AFTER_MINUTES: '0',
    // The worker runs one job at a time, in enqueue order: jobs run side by side would reach
    // the gateway in an order that depends on timing (and the emulator's ids with it).
    JOB_BATCH_SIZE: '1',
  });
  const newDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-reconcile-'));
    dirs.push(d);
    return d;
  };
  const procs: ServiceProcess[] = [];
  const figures: RunFigures = {
    seed: options.seed,
    control,
    racing,
    operations: 0,
    byKind: {},
    faults: {
      service_kills: 0,
      notifications_late: 0,
      notifications_twice: 0,
      notifications_never: 0,
      notifications_reordered: 0,
    },
    orders: 0,
    payments: 0,
    refunds: 0,
    paidAtGateway: 0,
    confirmedBookings: 0,
    confirmedPeriods: 0,
    payouts: { requested: 0, processed: 0, reversed: 0, failed: 0, gatewayProcessedPaise: 0, ledgerPaise: 0 },
    money: [],
    feeEntriesChecked: 0,
    sweeps: 0,
    sweepTotals: emptySweep(),
    stalls: 0,
    races: emptyRaceFigures(),
    lied: {},
    mismatches: [],
    seconds: 0,
  };
  // The worker instance: runs the jobs and the sweep, on a clock six hours ahead of the
  // processes' that moves one second per operation (every order and job is due at once,
  // and back-offs come due by operations, not by wall time). Six hours: the wall clock
  // must never catch up with it, even in a long run on a loaded machine.
  const workerDir = newDir();
  const clock = new ManualClock(new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 6 * 3_600_000));
  const deps = await createDeps(loadConfig(env(workerDir)), { clock, logger: pino({ level: 'silent' }) });
  const work = async () => {
    for (let i = 0; i < 1000 && (await deps.jobs.runOnce()) > 0; i++);
  };
  const runSweep = async () => {
    const s = await sweep(deps);
    figures.sweeps++;
    for (const k of Object.keys(figures.sweepTotals) as (keyof typeof figures.sweepTotals)[])
      figures.sweepTotals[k] += s[k];
    await work();
  };
  try {
    // ---------------------------------------------------------------- set-up (no faults yet)
    procs.push(await startProcess(env(newDir()), 180_000), await startProcess(env(newDir()), 180_000));
    const url0 = procs[0]!.url;
    // Staff rights and live keys need a verified address: each opens the link of its mail.
    const staff = await signup(url0, { email: staffEmail });
    const orgAccount = await signup(url0, { email: email('organiser') });
    await work();
    for (const a of [staff, orgAccount]) await verifyFromMailFiles(url0, dirs, a.email);
    const { key } = await createKey(url0, orgAccount.token, { mode: 'live' });
    await call(url0, 'POST', `/admin/api/accounts/${orgAccount.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const labels = new Map<string, string>([
      [orgAccount.userId, 'organiser'],
      [staff.userId, 'staff'],
    ]);

    const anyUrl = (r: Random) => pick(r, procs).url;
    const api = async (r: Random, method: string, path: string, body?: unknown, url = anyUrl(r)) => {
      try {
        return await call(url, method, path, { key, body });
      } catch (err) {
        // The process died under the request: the outcome is unknown to the client.
        return { status: 0, body: { error: String(err) } as any, headers: new Headers(), text: String(err) };
      }
    };

    interface EventInfo {
      id: string;
      label: string;
      price: number;
      promo?: string;
      tier?: string;
    }
    const events: EventInfo[] = [];
    const eventCount = Math.max(6, Math.ceil(options.operations / 120));
    for (let i = 0; i < eventCount; i++) {
      const price = pick(top, [99, 120, 250, 500, 999]);
      const capacity = pick(top, [5, 12, 30, 60, 0]);
      const team = top() < 0.3;
      const tier = top() < 0.3 ? { name: 'VIP', price: price * 2, capacity: 4 } : undefined;
      const r = await call(url0, 'POST', '/api/v1/events', {
        key,
        body: {
          title: `Run ${i}`,
          description: 'reconciliation run',
          startDate: '2027-03-01',
          price,
          capacity,
          ...(team ? { maxTeamSize: 3 } : {}),
          ...(tier ? { specialPrices: [tier] } : {}),
        },
      });
      if (r.status !== 201) throw new Error(`event: ${r.status} ${r.text}`);
      const id = r.body.data.id as string;
      await call(url0, 'PATCH', `/api/v1/events/${id}`, { key, body: { status: 'published' } });
      // Ticket mail renders QR codes: not what this run measures.
      await call(url0, 'POST', `/admin/api/events/${id}/ticket-emails`, {
        token: staff.token,
        body: { enabled: false },
      });
      const info: EventInfo = { id, label: `event ${i}`, price, ...(tier ? { tier: tier.name } : {}) };
      labels.set(id, info.label);
      if (i % 3 === 0) {
        await call(url0, 'POST', `/api/v1/events/${id}/promo-codes`, {
          key,
          body: { code: `LIMIT${i}`, discountPercent: 20, maxUses: 2 },
        });
        info.promo = `LIMIT${i}`;
      }
      events.push(info);
    }
    // Racing mode: events whose attendee page cancels (keeping a fee) and transfers.
    const raceEvents: RaceEvent[] = [];
    const feeBasisPoints = new Map<string, number>();
    for (const e of racing ? RACE_EVENTS : []) {
      const selfService = {
        transfer: true,
        cancel: true,
        cutoffHours: 1,
        refund: e.feePercent === 100 ? 'none' : { feePercent: e.feePercent },
      };
      const body = {
        title: e.title,
        description: 'reconciliation run, racing',
        startDate: '2027-03-01',
        price: e.price,
        capacity: 0,
        selfService,
        ...(e.maxTeamSize ? { maxTeamSize: e.maxTeamSize } : {}),
      };
      const r = await call(url0, 'POST', '/api/v1/events', { key, body });
      if (r.status !== 201) throw new Error(`race event: ${r.status} ${r.text}`);
      const id = r.body.data.id as string;
      await call(url0, 'PATCH', `/api/v1/events/${id}`, { key, body: { status: 'published' } });
      await call(url0, 'POST', `/admin/api/events/${id}/ticket-emails`, {
        token: staff.token,
        body: { enabled: false },
      });
      labels.set(id, e.title.toLowerCase());
      feeBasisPoints.set(id, Math.round(e.feePercent * 100));
      raceEvents.push({ id, label: e.title.toLowerCase(), feeBasisPoints: Math.round(e.feePercent * 100) });
    }
    const plans: string[] = [];
    for (const [i, amount] of [299, 1200].entries()) {
      const r = await call(url0, 'POST', '/api/v1/memberships/plans', {
        key,
        body: { name: `Term ${i}`, amount, kind: 'fixed_term', termMonths: 1 + i * 11 },
      });
      if (r.status !== 201) throw new Error(`plan: ${r.status} ${r.text}`);
      plans.push(r.body.data.id);
    }
    await work();

    // ---------------------------------------------------------------- operations
    rzp.chaos({ seed: options.seed ^ 0x5eed, rate: faultRate });
    const pool: EmulatorNotification[] = [];
    const knownBookings: { eventId: string; registrationId: string }[] = [];
    const deletedEvents = new Set<string>();

    const weights: [Kind, number][] = [
      ['book_pay_step2', 20],
      ['book_paid_twice', 3],
      ['book_duplicate_step2', 8],
      ['book_authorised', 8],
      ['book_browser_closed', 9],
      ['book_abandoned', 5],
      ['book_cancel_race', 8],
      ['book_refund_race', 6],
      ['end_booking', 6],
      ['member_pay_confirm', 8],
      ['member_browser_closed', 4],
      ['member_cancel_race', 4],
      ['deliver_notifications', 12],
      ['promo_limit_booking', 6],
      ['repeat_subscribe', 4],
      ['delete_event', 1],
      ['payout', 2],
      ['settle_payout', 3],
    ];
    const total = weights.reduce((s, [, w]) => s + w, 0);
    const plan: Kind[] = Array.from({ length: options.operations }, () => {
      let x = top() * total;
      for (const [k, w] of weights) if ((x -= w) < 0) return k;
      return weights[0]![0];
    });
    const opSeeds = plan.map(() => Math.floor(top() * 2 ** 31));
    // The sweep runs after about one operation in 25, at seeded points.
    const sweepAfter = plan.map(() => top() < 0.04);
    // Mid-run, one process dies while one of its gateway requests is held.
    plan[Math.floor(options.operations / 2)] = 'kill_process';
    // Racing mode: after which operations a racing group runs, and of which kind.
    const raceAfter = plan.map(() => racing && raceRandom() < (options.raceRate ?? 0.25));
    const raceKindsInOrder = raceKinds(raceRandom, raceAfter.filter(Boolean).length);
    const raceSeeds = raceKindsInOrder.map(() => Math.floor(raceRandom() * 2 ** 31));

    /**
     * Runs `tasks` as concurrent requests would, but one step at a time: every gateway
     * request is held at the emulator; whenever nothing moves (each started task has
     * finished or waits at the emulator), the seed picks what goes next — start another
     * task, or release one held request.
     */
    async function concurrently(r: Random, tasks: ((r: Random) => Promise<unknown>)[]): Promise<void> {
      const rs = tasks.map(() => seededRandom(Math.floor(r() * 2 ** 31)));
      const done: Promise<void>[] = [];
      const held: { h: HeldRequest; task: number }[] = [];
      const notStarted = tasks.map((_, i) => i);
      let finished = 0;
      rzp.gate(true);
      try {
        let pendingHeld = rzp.nextHeld();
        let running: number | undefined;
        while (finished < tasks.length) {
          if (running !== undefined) {
            const task = running;
            let timer: NodeJS.Timeout | undefined;
            const ev = await Promise.race([
              done[task]!.then(() => 'done' as const),
              pendingHeld.then((h) => ({ h })),
              new Promise<'stall'>((res) => (timer = setTimeout(() => res('stall'), 60_000))),
            ]);
            clearTimeout(timer);
            if (ev === 'stall') {
              // A request that neither finishes nor reaches the gateway: let everything go.
              figures.stalls++;
              log(`stall: released every held request (the run is not exact from here)`);
              rzp.gate(false);
              for (const i of notStarted.splice(0))
                done[i] = tasks[i]!(rs[i]!).then(
                  () => undefined,
                  () => undefined,
                );
              await Promise.all(done);
              return;
            }
            running = undefined;
            if (ev === 'done') finished++;
            else {
              held.push({ h: ev.h, task });
              pendingHeld = rzp.nextHeld();
            }
            continue;
          }
          const choice = Math.floor(r() * (notStarted.length + held.length));
          if (choice < notStarted.length) {
            const i = notStarted.splice(choice, 1)[0]!;
            done[i] = tasks[i]!(rs[i]!).then(
              () => undefined,
              () => undefined,
            );
            running = i;
          } else {
            const { h, task } = held.splice(choice - notStarted.length, 1)[0]!;
            running = task;
            h.release();
          }
        }
      } finally {
        rzp.gate(false);
      }
    }

    const liveEvents = () => events.filter((e) => !deletedEvents.has(e.id));
    async function step1(
      r: Random,
      extra: Record<string, unknown> = {},
      event = pick(r, liveEvents()),
      url = anyUrl(r),
    ) {
      const team = r() < 0.25 ? [{ name: 'Friend', email: email('friend') }] : [];
      const body: Record<string, unknown> = { name: 'Buyer', email: email('buyer'), ...extra };
      if (event.tier && r() < 0.3) body.ticketType = event.tier;
      let s = await api(
        r,
        'POST',
        `/api/v1/events/${event.id}/register`,
        { ...body, ...(team.length > 0 ? { teamMembers: team } : {}) },
        url,
      );
      // Not a team event: book alone.
      if (s.status === 400 && team.length > 0)
        s = await api(r, 'POST', `/api/v1/events/${event.id}/register`, body, url);
      if (s.status !== 201) {
        if (process.env.RECONCILE_DIGEST)
          log(`step 1 refused on ${event.label}: ${s.status} ${s.body?.code ?? s.text.slice(0, 80)}`);
        return undefined;
      }
      knownBookings.push({ eventId: event.id, registrationId: s.body.registrationId });
      return {
        eventId: event.id,
        registrationId: s.body.registrationId as string,
        orderId: s.body.orderId as string,
      };
    }
    const step2 = async (
      r: Random,
      b: { eventId: string; registrationId: string; orderId: string },
      paymentId: string,
    ) => {
      let a = await api(r, 'POST', `/api/v1/events/${b.eventId}/register`, {
        registrationId: b.registrationId,
        orderId: b.orderId,
        paymentId,
      });
      // A client that saw a gateway failure sometimes tries again, sometimes gives up.
      if ((a.status === 502 || a.status === 0) && r() < 0.5)
        a = await api(r, 'POST', `/api/v1/events/${b.eventId}/register`, {
          registrationId: b.registrationId,
          orderId: b.orderId,
          paymentId,
        });
      return a;
    };
    const organiserEnd = async (
      r: Random,
      b: { eventId: string; registrationId: string },
      action: 'cancel' | 'refund',
    ) => {
      const a = await api(
        r,
        'POST',
        `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/${action}`,
      );
      if ((a.status === 502 || a.status === 0) && r() < 0.5)
        await api(r, 'POST', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/${action}`);
    };
    const pay = (orderId: string | undefined, capture = true) => {
      if (!orderId) return undefined;
      try {
        return String(rzp.pay(orderId, { capture }).id);
      } catch {
        return undefined;
      }
    };
    async function subscribe(r: Random, who = email('member'), planId = pick(r, plans)) {
      const s = await api(r, 'POST', '/api/v1/memberships/subscribe', { planId, name: 'Member', email: who });
      if (s.status !== 201 && s.status !== 200) return undefined;
      return s.body as { membershipId: string; orderId?: string };
    }
    const confirm = async (r: Random, s: { membershipId: string; orderId?: string }, paymentId: string) => {
      const a = await api(r, 'POST', `/api/v1/memberships/${s.membershipId}/confirm`, {
        orderId: s.orderId,
        paymentId,
      });
      if ((a.status === 502 || a.status === 0) && r() < 0.5)
        await api(r, 'POST', `/api/v1/memberships/${s.membershipId}/confirm`, {
          orderId: s.orderId,
          paymentId,
        });
    };
    const notify = async (r: Random, body: string, eventId?: string) => {
      await call(anyUrl(r), 'POST', '/webhooks/razorpay', {
        raw: body,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
          ...(eventId ? { 'x-razorpay-event-id': eventId } : {}),
        },
      }).catch(() => undefined);
    };
    async function deliver(r: Random, all: boolean) {
      pool.push(...rzp.takeNotifications());
      if (pool.length === 0) return;
      // Out of order: a shuffled slice of what is waiting.
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      }
      figures.faults.notifications_reordered!++;
      const n = all ? pool.length : Math.ceil(pool.length * r());
      const batch = pool.splice(0, n);
      for (const note of batch) {
        const x = r();
        if (x < 0.15) {
          figures.faults.notifications_never!++;
          continue;
        }
        if (!all && x < 0.3) {
          figures.faults.notifications_late!++;
          pool.push(note);
          continue;
        }
        const times = x > 0.85 ? 2 : 1;
        if (times === 2) figures.faults.notifications_twice!++;
        for (let t = 0; t < times; t++) await notify(r, note.body, note.eventId);
      }
    }
    /** The bank's word on a payout, told to the service by a signed notification (sometimes twice). */
    async function settlePayout(r: Random, payoutId: string, outcome: 'processed' | 'reversed' | 'failed') {
      const steps: ('processed' | 'reversed' | 'failed')[] =
        outcome === 'reversed' ? ['processed', 'reversed'] : [outcome];
      for (const s of steps) {
        const body = rzp.settlePayout(payoutId, s);
        await notify(r, body);
        if (r() < 0.2) await notify(r, body);
      }
    }

    const died = (err: unknown) => ({
      status: 0,
      body: { error: String(err) } as any,
      headers: new Headers(),
      text: String(err),
    });
    const raceHarness: RaceHarness = {
      rzp,
      secretsKey: deps.config.secretsKey,
      events: raceEvents,
      urls: () => procs.map((p) => p.url),
      book: (r, e) => step1(r, {}, { id: e.id, label: e.label, price: 0 }),
      pay: (orderId) => pay(orderId),
      api: (url, method, path, body) => api(raceRandom, method, path, body, url),
      form: (url, path, fields) =>
        call(url, 'POST', path, {
          raw: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
        }).catch(died),
      notify: (url, note) =>
        call(url, 'POST', '/webhooks/razorpay', {
          raw: note.body,
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': signWebhook(note.body, WEBHOOK_SECRET),
            'x-razorpay-event-id': note.eventId,
          },
        }).catch(died),
      notificationsOf: (paymentId) => {
        pool.push(...rzp.takeNotifications());
        const mine = pool.filter((n) => n.paymentId === paymentId);
        pool.splice(0, pool.length, ...pool.filter((n) => n.paymentId !== paymentId));
        return mine;
      },
      ticketCode: async (id) =>
        (
          await deps.db
            .selectFrom('registrations')
            .select('ticket_code')
            .where('id', '=', id)
            .executeTakeFirst()
        )?.ticket_code ?? null,
      email,
      figures: figures.races,
      mismatch: (m) => figures.mismatches.push(m),
      stalled: () => {
        figures.stalls++;
        log('stall: a racing group released at once');
      },
      ...(process.env.RECONCILE_DIGEST ? { trace: log } : {}),
    };

    async function runOp(kind: Kind, r: Random): Promise<void> {
      switch (kind) {
        case 'book_pay_step2': {
          const b = await step1(r);
          const p = b && pay(b.orderId);
          if (b && p) await step2(r, b, p);
          return;
        }
        case 'book_paid_twice': {
          // Two browser tabs: the order paid, confirmed, then paid again — sometimes after
          // a sweep has already found the order settled.
          const b = await step1(r);
          const p = b && pay(b.orderId);
          if (!b || !p) return;
          await step2(r, b, p);
          if (r() < 0.5 && !control) await runSweep();
          pay(b.orderId);
          return;
        }
        case 'book_duplicate_step2': {
          const b = await step1(r);
          const p = b && pay(b.orderId);
          if (b && p)
            await concurrently(r, [(x) => step2(x, b, p), (x) => step2(x, b, p), (x) => step2(x, b, p)]);
          return;
        }
        case 'book_authorised': {
          const b = await step1(r);
          const p = b && pay(b.orderId, false);
          if (b && p) await step2(r, b, p);
          return;
        }
        case 'book_browser_closed': {
          const b = await step1(r);
          if (b) pay(b.orderId, r() < 0.8);
          return;
        }
        case 'book_abandoned':
          await step1(r);
          return;
        case 'book_cancel_race':
        case 'book_refund_race': {
          const b = await step1(r);
          const p = b && pay(b.orderId);
          if (!b || !p) return;
          const action = kind === 'book_cancel_race' || r() < 0.5 ? 'cancel' : 'refund';
          await concurrently(r, [(x) => step2(x, b, p), (x) => organiserEnd(x, b, action)]);
          return;
        }
        case 'end_booking': {
          if (knownBookings.length === 0) return;
          await organiserEnd(r, pick(r, knownBookings), r() < 0.5 ? 'refund' : 'cancel');
          return;
        }
        case 'member_pay_confirm':
        case 'member_browser_closed': {
          const s = await subscribe(r);
          const p = pay(s?.orderId, r() < 0.85);
          if (s && p && kind === 'member_pay_confirm') await confirm(r, s, p);
          return;
        }
        case 'member_cancel_race': {
          const s = await subscribe(r);
          const p = pay(s?.orderId);
          if (!s || !p) return;
          await concurrently(r, [
            (x) => confirm(x, s, p),
            (x) => api(x, 'POST', `/api/v1/memberships/${s.membershipId}/cancel`, { immediate: true }),
          ]);
          return;
        }
        case 'deliver_notifications':
          await deliver(r, false);
          return;
        case 'promo_limit_booking': {
          // A burst at a code near its limit: every step 1 sees a use left.
          const withPromo = liveEvents().filter((e) => e.promo);
          if (withPromo.length === 0) return;
          const event = pick(r, withPromo);
          const bookings: Awaited<ReturnType<typeof step1>>[] = [];
          await concurrently(
            r,
            [0, 1, 2].map(
              (i) => async (x: Random) => (bookings[i] = await step1(x, { promoCode: event.promo }, event)),
            ),
          );
          await concurrently(
            r,
            bookings.map((b) => async (x: Random) => {
              const p = b && pay(b.orderId);
              if (b && p) await step2(x, b, p);
            }),
          );
          return;
        }
        case 'repeat_subscribe': {
          // A repeat subscribe while the first order is open answers the same order: the
          // buyer may pay it twice (two browser tabs).
          const who = email('repeat');
          const planId = pick(r, plans);
          const first = await subscribe(r, who, planId);
          const second = await subscribe(r, who, planId);
          const p = pay(first?.orderId);
          if (first && p) await confirm(r, first, p);
          if (second?.orderId && r() < 0.5) {
            // The second tab pays the same order, sometimes after a sweep found it settled.
            if (r() < 0.5 && !control) await runSweep();
            pay(second.orderId);
          }
          return;
        }
        case 'delete_event': {
          const candidates = liveEvents();
          if (candidates.length <= 3) return;
          const event = pick(r, candidates);
          // The organiser (refused while paid bookings stand), or staff with force=true.
          const asStaff = r() < 0.5;
          const a = await call(
            anyUrl(r),
            'DELETE',
            `/api/v1/events/${event.id}${asStaff ? '?force=true' : ''}`,
            { token: asStaff ? staff.token : orgAccount.token },
          ).catch(() => undefined);
          if (a && (a.status === 200 || a.status === 204)) deletedEvents.add(event.id);
          return;
        }
        case 'payout': {
          // The organiser withdraws part of the available balance to UPI (live, RazorpayX).
          const amount = pick(r, [100, 150, 250, 400]);
          const a = await call(anyUrl(r), 'POST', '/dashboard/api/payouts', {
            token: orgAccount.token,
            body: { amount, upiId: pick(r, ['organiser@okaxis', 'organiser@ybl']) },
          }).catch(() => undefined);
          if (a?.status === 201) figures.payouts.requested++;
          return;
        }
        case 'settle_payout': {
          const open = [...rzp.payouts.values()].filter((p) => p.status === 'processing');
          if (open.length === 0) return;
          const x = r();
          await settlePayout(
            r,
            String(pick(r, open).id),
            x < 0.6 ? 'processed' : x < 0.8 ? 'reversed' : 'failed',
          );
          return;
        }
        case 'kill_process': {
          // Step 1 on the victim: its order create is held at the emulator, the process dies,
          // then the emulator carries the create out. A new process takes its place.
          const victim = procs[1]!;
          const event = pick(r, liveEvents());
          rzp.gate(true);
          const attempt = step1(r, {}, event, victim.url);
          const heldOrDone = await Promise.race([rzp.nextHeld(), attempt.then(() => undefined)]);
          await victim.stop('SIGKILL');
          rzp.gate(false);
          heldOrDone?.release();
          await attempt;
          figures.faults.service_kills!++;
          log(
            `killed one service process (SIGKILL) with ${heldOrDone ? `${heldOrDone.method} ${heldOrDone.path}` : 'no request'} held at the gateway; restarting it`,
          );
          procs[1] = await startProcess(env(newDir()), 180_000);
          return;
        }
      }
    }

    let seenRequests = rzp.requests.length;
    let races = 0;
    for (let i = 0; i < plan.length; i++) {
      const kind = plan[i]!;
      const t0 = Date.now();
      await runOp(kind, seededRandom(opSeeds[i]!)).catch((err: unknown) =>
        log(`operation ${i} (${kind}) threw: ${String(err)}`),
      );
      figures.operations++;
      figures.byKind[kind] = (figures.byKind[kind] ?? 0) + 1;
      clock.advance(1000);
      await work();
      if (raceAfter[i]) {
        const n = races++;
        await runRace(raceHarness, raceKindsInOrder[n]!, seededRandom(raceSeeds[n]!)).catch((err: unknown) =>
          log(`race ${n} (${raceKindsInOrder[n]}) threw: ${String(err)}`),
        );
        clock.advance(1000);
        await work();
      }
      const t1 = Date.now();
      if (sweepAfter[i] && !control) await runSweep();
      if (process.env.RECONCILE_TRACE && Date.now() - t0 > 500)
        log(`operation ${i} ${kind}: ${t1 - t0} ms, then ${Date.now() - t1} ms of jobs and sweep`);
      // RECONCILE_DIGEST=1: what the gateway holds after each operation, to find where two runs of one seed part.
      if (process.env.RECONCILE_DIGEST) {
        log(`digest ${i} ${kind}: ${digest(rzp)}`);
        // RECONCILE_DIGEST=2: and every gateway request the operation made, in order.
        if (process.env.RECONCILE_DIGEST === '2')
          log(
            `requests ${i}: ${rzp.requests
              .slice(seenRequests)
              .map((q) => `${q.method} ${q.path}`)
              .join(' | ')}`,
          );
        seenRequests = rzp.requests.length;
      }
      if (figures.operations % 500 === 0) log(`${figures.operations} operations`);
    }

    // ---------------------------------------------------------------- the end: late notifications, payouts settled, then reconciliation
    await deliver(seededRandom(options.seed + 1), true);
    rzp.chaos(undefined);
    for (const [k, v] of Object.entries(rzp.faults)) figures.faults[`gateway_${k}`] = v;
    await work();
    const endRandom = seededRandom(options.seed + 2);
    for (const p of [...rzp.payouts.values()].filter((x) => x.status === 'processing'))
      await settlePayout(endRandom, String(p.id), 'processed');
    for (const p of procs) await p.stop('SIGTERM');

    // Hours ahead: every open order is due, every refund job's back-off has passed.
    clock.advance(2 * 3_600_000);
    for (let round = 0; round < 4; round++) {
      if (!control) await runSweep();
      await work();
      clock.advance(6 * 3_600_000);
    }
    log(
      `sweeps: ${figures.sweeps}; ${Object.entries(figures.sweepTotals)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    await verify(deps.db, rzp, orgAccount.userId, figures, labels);
    await independentChecks(deps.db, rzp, figures, labels, feeBasisPoints);
    // The service's own recomputation (GET /admin/api/ledger/check) agrees too.
    const ledgerCheck = await checkLedger(deps.db);
    for (const m of ledgerCheck.mismatches)
      figures.mismatches.push(
        `ledger recomputation ${labels.get(m.accountId) ?? 'an account'} ${m.mode} ${m.source}: recomputed ${m.expectedPaise}, ledger ${m.ledgerPaise}`,
      );
    if (options.minimums ?? true) minimums(figures);
    for (const [k, ids] of Object.entries(rzp.lied))
      if (ids.size > 0)
        figures.lied[k] = [...ids].map((id) => ({
          id,
          orderId: String(rzp.payments.get(id)?.order_id ?? id),
        }));
  } finally {
    for (const p of procs) await p.stop('SIGKILL');
    await deps.close().catch(() => undefined);
    await rzp.close();
    await db.drop().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    figures.seconds = Math.round((Date.now() - started) / 1000);
  }
  return figures;
}

/** Counts of the gateway's books and faults: equal after every operation in two runs of one seed. */
function digest(rzp: RazorpayEmulator): string {
  const by = (m: Map<string, Record<string, unknown>>, field: string) => {
    const c: Record<string, number> = {};
    for (const v of m.values()) c[String(v[field])] = (c[String(v[field])] ?? 0) + 1;
    return Object.entries(c)
      .sort()
      .map(([k, n]) => `${k}=${n}`)
      .join(',');
  };
  return `orders ${by(rzp.orders, 'status')} payments ${by(rzp.payments, 'status')} requests ${rzp.requests.length} faults ${JSON.stringify(rzp.faults)}`;
}

type Db = import('kysely').Kysely<import('../../src/db/database.js').Database>;
type Registration = import('kysely').Selectable<import('../../src/db/database.js').Database['registrations']>;

/** What the service holds of a booking's money: a confirmed one's price, an ended one's kept fee. */
const heldBy = (r: Pick<Registration, 'status' | 'amount_paise' | 'kept_paise'>) =>
  r.status === 'confirmed'
    ? Number(r.amount_paise)
    : r.status === 'cancelled' || r.status === 'refunded'
      ? Number(r.kept_paise)
      : 0;

async function verify(
  db: Db,
  rzp: RazorpayEmulator,
  accountId: string,
  figures: RunFigures,
  labels: Map<string, string>,
): Promise<void> {
  const miss = (m: string) => figures.mismatches.push(m);
  const regs = await db.selectFrom('registrations').selectAll().where('account_id', '=', accountId).execute();
  const gos = await db.selectFrom('gateway_orders').selectAll().where('account_id', '=', accountId).execute();
  const regByOrder = new Map(regs.filter((r) => r.order_id).map((r) => [r.order_id!, r]));
  const goByOrder = new Map(gos.filter((g) => g.order_id).map((g) => [g.order_id!, g]));
  const captured = [...rzp.payments.values()].filter(
    (p) => p.status === 'captured' || p.status === 'refunded',
  );
  figures.orders = rzp.orders.size;
  figures.payments = captured.length;
  figures.refunds = captured.filter((p) => Number(p.amount_refunded) > 0).length;
  figures.confirmedBookings = regs.filter(
    (r) => r.status === 'confirmed' && Number(r.amount_paise) > 0,
  ).length;
  figures.confirmedPeriods = gos.filter((g) => g.kind === 'membership' && g.payment_id !== null).length;
  const paidOrders = new Set(captured.map((p) => String(p.order_id)));
  figures.paidAtGateway = regs.filter(
    (r) => Number(r.amount_paise) > 0 && r.order_id !== null && paidOrders.has(r.order_id),
  ).length;

  // 1. Per order: the gateway's captured minus refunded is what the service holds: a
  //    confirmed booking's price, or what an ended one kept (a cancellation's fee).
  for (const order of rzp.orders.values()) {
    const id = String(order.id);
    const net = captured
      .filter((p) => p.order_id === id)
      .reduce((s, p) => s + Number(p.amount) - Number(p.amount_refunded), 0);
    const reg = regByOrder.get(id);
    const go = goByOrder.get(id);
    const held = reg ? heldBy(reg) : go?.kind === 'membership' && go.payment_id ? Number(go.amount_paise) : 0;
    if (net !== held)
      miss(
        `order ${id}: gateway holds ${net} paise net, the service ${held} (${reg ? `booking ${reg.status}${Number(reg.kept_paise) > 0 ? `, kept ${reg.kept_paise}` : ''}` : go ? `${go.kind} ${go.outcome ?? 'open'}` : 'unknown to the service'})`,
      );
  }
  // 2. Every captured payment is a confirmed booking or period, fully refunded, or refunded
  //    but for what its ended booking kept.
  for (const p of captured) {
    const id = String(p.id);
    const booking = regs.find((r) => r.payment_id === id && r.status === 'confirmed');
    const period = gos.find((g) => g.payment_id === id);
    const refunded = Number(p.amount_refunded) === Number(p.amount);
    const kept = regs.find(
      (r) =>
        r.payment_id === id &&
        (r.status === 'cancelled' || r.status === 'refunded') &&
        Number(r.kept_paise) > 0,
    );
    const refundedButKept =
      kept !== undefined && Number(p.amount) - Number(p.amount_refunded) === Number(kept.kept_paise);
    if ((booking || period) && Number(p.amount_refunded) > 0)
      miss(`payment ${id} of ${p.order_id}: refunded ${p.amount_refunded} yet confirmed`);
    if (!booking && !period && !refunded && !refundedButKept)
      miss(
        `payment ${id} of ${p.order_id}: captured ${p.amount}, refunded ${p.amount_refunded}, ${kept ? `its booking kept ${kept.kept_paise}` : 'confirmed nowhere'}`,
      );
  }
  // A refund's claim still open after the last sweep: the sweep must finish every one.
  for (const r of regs)
    if (r.status === 'refunding')
      miss(
        `booking of order ${r.order_id}: still refunding after the last sweep (claimed at ${r.claimed_at?.toISOString()})`,
      );
  for (const r of regs) {
    if (r.status === 'confirmed' && Number(r.amount_paise) > 0) {
      const p = r.payment_id ? rzp.payments.get(r.payment_id) : undefined;
      if (!p || p.status !== 'captured' || Number(p.amount_refunded) !== 0)
        miss(`booking of order ${r.order_id}: confirmed without a captured, unrefunded payment`);
    }
  }
  // 3. Seats taken equal confirmed head counts.
  const counters = await db
    .selectFrom('seat_counters')
    .innerJoin('events', 'events.id', 'seat_counters.event_id')
    .select(['seat_counters.event_id', 'scope', 'taken', 'seat_counters.capacity'])
    .where('events.account_id', '=', accountId)
    .execute();
  for (const c of counters) {
    const holders = regs.filter(
      (r) =>
        r.event_id === c.event_id &&
        r.status === 'confirmed' &&
        (c.scope === EVENT_SCOPE ||
          (c.scope === PAID_SCOPE && Number(r.amount_paise) > 0) ||
          c.scope === tierScope(r.ticket_type)),
    );
    const heads = holders.reduce((s, r) => s + r.quantity, 0);
    const ev = labels.get(c.event_id) ?? 'an event';
    if (heads !== c.taken) miss(`${ev} ${c.scope}: ${c.taken} seats taken, ${heads} confirmed heads`);
    if (c.capacity > 0 && c.taken > c.capacity)
      miss(`${ev} ${c.scope}: ${c.taken} taken over capacity ${c.capacity}`);
  }
  // 4. Promo uses never exceed their limits, nor do the bookings that hold the discount.
  const promos = await db
    .selectFrom('promo_codes')
    .innerJoin('events', 'events.id', 'promo_codes.event_id')
    .select(['promo_codes.code', 'uses', 'max_uses'])
    .where('events.account_id', '=', accountId)
    .execute();
  for (const p of promos) {
    if (p.max_uses === null) continue;
    if (p.uses > p.max_uses) miss(`promo ${p.code}: ${p.uses} uses over its limit of ${p.max_uses}`);
    const holders = regs.filter(
      (r) => r.promo_code === p.code && (r.status === 'confirmed' || r.status === 'pending'),
    ).length;
    if (holders > p.max_uses)
      miss(`promo ${p.code}: ${holders} bookings hold it, over its limit of ${p.max_uses}`);
  }
}

// The fees of docs/decisions/09-money-and-fees.md, written out here on its own (not the service's fees.ts): per paid ticket, a
// percentage by the ticket's ordinal among the event's paid tickets, held between 3 and
// 75 rupees; the gateway's 3 % of the price, per ticket.
const PLATFORM_BANDS: [number, number][] = [
  [100, 0.045],
  [500, 0.035],
  [2000, 0.025],
  [Infinity, 0.0175],
];
const platformFeeAt = (unit: number, ordinal: number) =>
  Math.min(7500, Math.max(300, Math.round(unit * PLATFORM_BANDS.find(([upTo]) => ordinal <= upTo)![1])));
const gatewayCharge = (unit: number) => Math.round(unit * 0.03);

/**
 * The money, each side read on its own: the gateway emulator's books, the service's
 * bookings and membership periods, and the ledger's entries as stored.
 */
async function independentChecks(
  db: Db,
  rzp: RazorpayEmulator,
  figures: RunFigures,
  labels: Map<string, string>,
  feeBasisPoints: Map<string, number>,
): Promise<void> {
  const miss = (m: string) => figures.mismatches.push(m);
  const regs = await db.selectFrom('registrations').selectAll().execute();
  const gos = await db.selectFrom('gateway_orders').selectAll().execute();
  const entries = await db.selectFrom('ledger_entries').selectAll().orderBy('seq').execute();
  const accountOf = (id: string) => labels.get(id) ?? 'an unlabelled account';

  // A. Per account, mode and product: gateway captured − refunded = the service's confirmed
  //    gross with what cancellations kept = the ledger's sales − refunds. The gateway's side
  //    is what its orders say they are for (the order's notes), its account and mode the
  //    service's key (one live key here).
  type Key = string;
  const lines = new Map<Key, MoneyLine>();
  const line = (account: string, mode: string, product: 'tickets' | 'memberships') => {
    const k = `${account}|${mode}|${product}`;
    let l = lines.get(k);
    if (!l)
      lines.set(
        k,
        (l = { account, mode, product, gatewayNet: 0, serviceGross: 0, keptPaise: 0, ledgerNet: 0 }),
      );
    return l;
  };
  const owner = new Map<string, { account: string; mode: string }>();
  for (const g of gos)
    if (g.order_id) owner.set(g.order_id, { account: accountOf(g.account_id), mode: g.mode });
  for (const p of rzp.payments.values()) {
    if (!(p.status === 'captured' || p.status === 'refunded')) continue;
    const order = rzp.orders.get(String(p.order_id));
    const notes = (order?.notes ?? {}) as Record<string, unknown>;
    const product = typeof notes.registrationId === 'string' ? 'tickets' : 'memberships';
    // Every order the service made is in its receipts table; one it did not make belongs to nobody.
    const who = owner.get(String(p.order_id)) ?? { account: 'organiser', mode: 'live' };
    line(who.account, who.mode, product).gatewayNet += Number(p.amount) - Number(p.amount_refunded);
  }
  for (const r of regs) {
    if (Number(r.amount_paise) === 0) continue;
    const l = line(accountOf(r.account_id), r.mode, 'tickets');
    l.serviceGross += heldBy(r);
    if (r.status !== 'confirmed') l.keptPaise += heldBy(r);
  }
  for (const g of gos)
    if (g.kind === 'membership' && g.payment_id !== null)
      line(accountOf(g.account_id), g.mode, 'memberships').serviceGross += Number(g.amount_paise);
  for (const e of entries) {
    const a = Number(e.amount_paise);
    if (e.kind === 'ticket_sale' || e.kind === 'ticket_refund')
      line(accountOf(e.account_id), e.mode, 'tickets').ledgerNet += a;
    if (e.kind === 'membership_payment') line(accountOf(e.account_id), e.mode, 'memberships').ledgerNet += a;
  }
  for (const l of ['tickets', 'memberships'] as const) line('organiser', 'live', l);
  figures.money = [...lines.values()].sort((a, b) =>
    `${a.account}${a.mode}${a.product}`.localeCompare(`${b.account}${b.mode}${b.product}`),
  );
  for (const l of figures.money) {
    if (l.gatewayNet !== l.serviceGross || l.gatewayNet !== l.ledgerNet)
      miss(
        `${l.account} ${l.mode} ${l.product}: gateway captured − refunded ${l.gatewayNet} paise, service confirmed ${l.serviceGross}, ledger sales − refunds ${l.ledgerNet}`,
      );
  }

  // B. Fees from docs/decisions/09-money-and-fees.md, entry by entry.
  const bySource = new Map<string, typeof entries>();
  for (const e of entries) {
    const k = `${e.source_type}:${e.source_id}`;
    bySource.set(k, [...(bySource.get(k) ?? []), e]);
  }
  const sum = (es: typeof entries, kind: string) =>
    es.filter((e) => e.kind === kind).reduce((s, e) => s + Number(e.amount_paise), 0);
  const count = (es: typeof entries, kind: string) => es.filter((e) => e.kind === kind).length;
  // Paid tickets per event, ever booked: an upper bound on any ticket's ordinal.
  const ticketsPerEvent = new Map<string, number>();
  for (const r of regs)
    if (Number(r.amount_paise) > 0)
      ticketsPerEvent.set(r.event_id, (ticketsPerEvent.get(r.event_id) ?? 0) + r.quantity);
  for (const r of regs) {
    const es = bySource.get(`registration:${r.id}`) ?? [];
    const gross = Number(r.amount_paise);
    const where = `booking of order ${r.order_id ?? '(none)'} (${labels.get(r.event_id) ?? 'an event'}, ${r.status})`;
    const sold = count(es, 'ticket_sale');
    if (r.status === 'confirmed' && gross > 0 && r.mode === 'live' && sold !== 1)
      miss(`${where}: ${sold} sale entries, expected 1`);
    if (es.length === 0) continue;
    figures.feeEntriesChecked++;
    if (sold !== 1) {
      miss(`${where}: ${es.length} ledger entries but ${sold} sale entries`);
      continue;
    }
    if (sum(es, 'ticket_sale') !== gross)
      miss(`${where}: sale entry ${sum(es, 'ticket_sale')}, booking gross ${gross}`);
    const unit = Math.floor(gross / r.quantity);
    const platform = -sum(es, 'platform_fee');
    const gateway = -sum(es, 'gateway_fee');
    if (count(es, 'gateway_fee') !== 1 || gateway !== gatewayCharge(unit) * r.quantity)
      miss(
        `${where}: gateway charge entry ${gateway}, the fee rules (docs/decisions/09-money-and-fees.md) say ${gatewayCharge(unit) * r.quantity} (3 % of ${unit} × ${r.quantity})`,
      );
    // The ordinal depends on the event's sales before this one: some run of ordinals from 1
    // to every paid ticket the event ever had must give the entry's platform fee.
    const maxOrdinal = ticketsPerEvent.get(r.event_id) ?? r.quantity;
    let ok = false;
    for (let before = 0; before + r.quantity <= maxOrdinal && !ok; before++) {
      let f = 0;
      for (let i = 1; i <= r.quantity; i++) f += platformFeeAt(unit, before + i);
      ok = f === platform;
    }
    if (count(es, 'platform_fee') !== 1 || !ok)
      miss(
        `${where}: platform fee entry ${platform} follows no ordinal of the fee rules (docs/decisions/09-money-and-fees.md) for ${r.quantity} × ${unit}`,
      );
    const refunds = count(es, 'ticket_refund');
    // A cancellation under a fee-keeping policy refunds all but the fee and keeps the platform fee (docs/guides/attendee-page.md).
    const kept = r.status === 'confirmed' ? 0 : Number(r.kept_paise);
    if (refunds > 1) miss(`${where}: ${refunds} refund entries`);
    if (refunds === 1) {
      if (-sum(es, 'ticket_refund') !== gross - kept)
        miss(
          `${where}: refund entry ${-sum(es, 'ticket_refund')}, gross ${gross}${kept > 0 ? ` less ${kept} kept` : ''}`,
        );
      const reversal = kept > 0 ? 0 : platform;
      if (sum(es, 'platform_fee_reversal') !== reversal)
        miss(
          `${where}: platform fee reversal ${sum(es, 'platform_fee_reversal')}, expected ${reversal}${kept > 0 ? ' (a partial refund keeps the platform fee)' : ''}`,
        );
    } else if (count(es, 'platform_fee_reversal') > 0)
      miss(`${where}: a platform fee reversal without a refund`);
    // What the gateway refunded of the booking's payment is what the ledger records as refunded:
    // a refund made twice (two cancels of one booking, each refunding part of it) shows here.
    const payment = r.payment_id ? rzp.payments.get(r.payment_id) : undefined;
    if (payment && Number(payment.amount_refunded) !== -sum(es, 'ticket_refund'))
      miss(
        `${where}: payment ${r.payment_id} refunded ${payment.amount_refunded} paise at the gateway, the ledger's refunds of it ${-sum(es, 'ticket_refund')}`,
      );
    // A fee kept is the event's policy fee (rounded half up to the paisa) — and only on an event with such a policy.
    if (kept > 0) {
      const bp = feeBasisPoints.get(r.event_id);
      const fee = bp === undefined ? 0 : Math.floor((gross * bp + 5000) / 10_000);
      if (kept !== fee) miss(`${where}: kept ${kept} paise, its event's cancellation fee is ${fee}`);
    }
    if (r.status === 'confirmed' && refunds !== 0) miss(`${where}: confirmed, yet a refund entry`);
    // Ended: one refund entry, none when the policy kept the whole price.
    if (r.status !== 'confirmed' && refunds !== (kept === gross ? 0 : 1))
      miss(
        `${where}: sold in the ledger, ended ${r.status}${kept > 0 ? ` keeping ${kept}` : ''}, ${refunds} refund entries`,
      );
  }
  // Memberships: each payment entry carries, in live mode, the gateway's 3 % (and no platform fee).
  for (const [k, es] of bySource) {
    if (!k.startsWith('membership:')) continue;
    const byRef = new Map<string, typeof entries>();
    for (const e of es) byRef.set(e.ref, [...(byRef.get(e.ref) ?? []), e]);
    for (const [ref, group] of byRef) {
      const gross = sum(group, 'membership_payment');
      const mode = group[0]!.mode;
      figures.feeEntriesChecked++;
      const where = `membership payment ${ref} (${mode})`;
      if (count(group, 'membership_payment') !== 1)
        miss(`${where}: ${count(group, 'membership_payment')} payment entries`);
      const expected = mode === 'live' ? gatewayCharge(gross) : 0;
      if (-sum(group, 'gateway_fee') !== expected)
        miss(
          `${where}: gateway charge entry ${-sum(group, 'gateway_fee')}, the fee rules (docs/decisions/09-money-and-fees.md) say ${expected} (3 % of ${gross} in live mode)`,
        );
      if (count(group, 'platform_fee') > 0) miss(`${where}: a platform fee on a membership`);
    }
  }

  // C. Payouts: what RazorpayX paid out (processed and not reversed) is what the ledger holds as paid out.
  const gatewayPayouts = [...rzp.payouts.values()];
  figures.payouts.processed = gatewayPayouts.filter((p) => p.status === 'processed').length;
  figures.payouts.reversed = gatewayPayouts.filter((p) => p.status === 'reversed').length;
  figures.payouts.failed = gatewayPayouts.filter((p) => p.status === 'failed').length;
  figures.payouts.gatewayProcessedPaise = gatewayPayouts
    .filter((p) => p.status === 'processed')
    .reduce((s, p) => s + Number(p.amount), 0);
  figures.payouts.ledgerPaise = -entries
    .filter((e) => e.kind === 'payout_hold' || e.kind === 'payout_credit')
    .reduce((s, e) => s + Number(e.amount_paise), 0);
  if (figures.payouts.gatewayProcessedPaise !== figures.payouts.ledgerPaise)
    miss(
      `payouts: RazorpayX processed − reversed ${figures.payouts.gatewayProcessedPaise} paise, the ledger's payout entries ${figures.payouts.ledgerPaise}`,
    );
  const payoutRows = await db.selectFrom('payouts').selectAll().execute();
  for (const gp of gatewayPayouts) {
    const row = payoutRows.find((p) => p.id === gp.reference_id);
    if (!row) miss(`payout ${gp.id}: at RazorpayX, unknown to the service`);
    else if (row.status !== gp.status)
      miss(`payout ${gp.id}: RazorpayX says ${gp.status}, the service ${row.status}`);
  }
}

/** An empty or idle run proves nothing: these make it fail. */
function minimums(f: RunFigures): void {
  const miss = (m: string) => f.mismatches.push(`minimum: ${m}`);
  if (f.paidAtGateway === 0 || f.confirmedBookings < 0.3 * f.paidAtGateway)
    miss(
      `${f.confirmedBookings} of ${f.paidAtGateway} paid bookings paid at the gateway ended confirmed (at least 30 % wanted)`,
    );
  if (f.confirmedBookings === 0) miss('no paid booking confirmed');
  if (f.confirmedPeriods === 0) miss('no membership period paid');
  if (f.payouts.processed === 0) miss('no payout processed');
  for (const k of [
    'gateway_error',
    'gateway_lost_request',
    'gateway_lost_answer',
    'notifications_never',
    'notifications_late',
    'notifications_twice',
    'notifications_reordered',
    'service_kills',
  ]) {
    if (!f.faults[k]) miss(`no fault of kind ${k} fired`);
  }
}

const rupees = (paise: number) =>
  `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Every figure of a run that the seed fixes (the time taken is not one of them). */
export function figureLines(f: RunFigures): string[] {
  const faultTotal = Object.values(f.faults).reduce((s, v) => s + v, 0);
  return [
    `seed ${f.seed}${f.control ? ' (control: no sweep)' : ''}${f.racing ? ' (racing)' : ''}`,
    `operations ${f.operations}: ${Object.entries(f.byKind)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    ...(f.racing ? raceLines(f.races) : []),
    `faults injected ${faultTotal}: ${Object.entries(f.faults)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `gateway orders ${f.orders}, captured payments ${f.payments}, refunded ${f.refunds}; paid bookings paid at the gateway ${f.paidAtGateway}, confirmed ${f.confirmedBookings}; membership periods confirmed ${f.confirmedPeriods}`,
    `payouts requested ${f.payouts.requested}: processed ${f.payouts.processed}, reversed ${f.payouts.reversed}, failed ${f.payouts.failed}; RazorpayX paid out ${rupees(f.payouts.gatewayProcessedPaise)}, ledger ${rupees(f.payouts.ledgerPaise)}`,
    ...f.money.map(
      (l) =>
        `money ${l.account} ${l.mode} ${l.product}: gateway ${rupees(l.gatewayNet)}, service ${rupees(l.serviceGross)}${l.keptPaise > 0 ? ` (${rupees(l.keptPaise)} of it kept by cancellations)` : ''}, ledger ${rupees(l.ledgerNet)}`,
    ),
    `fee entries checked ${f.feeEntriesChecked}`,
    `sweeps ${f.sweeps}: ${Object.entries(f.sweepTotals)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `stalls ${f.stalls}`,
    `mismatches ${f.mismatches.length}`,
    ...f.mismatches.slice(0, 50).map((m) => `  - ${m}`),
    ...(f.mismatches.length > 50 ? [`  … ${f.mismatches.length - 50} more`] : []),
  ];
}

/** Racing mode's lines: the groups are the seed's; how their requests were answered depends on who won. */
export function raceLines(r: RaceFigures): string[] {
  return [
    `racing groups ${r.groups}: ${Object.entries(r.byKind)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `raced requests ${r.requests}, answered: ${Object.entries(r.answers)
      .sort()
      .map(([k, v]) => `${k} × ${v}`)
      .join(', ')}; groups of ending requests where exactly one acted ${r.oneActed}`,
  ];
}

export function formatFigures(f: RunFigures): string {
  const replays = f.racing
    ? `RECONCILE_RACING=1 RECONCILE_SEED=${f.seed} replays this run's operations and racing groups (not which request of a group wins)`
    : `RECONCILE_SEED=${f.seed} replays this run`;
  return [replays, ...figureLines(f), `took ${f.seconds} s`].join('\n');
}
