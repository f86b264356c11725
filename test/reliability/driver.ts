// The reconciliation run: a seeded, randomised mix of paid bookings and memberships
// against two service processes on one PostgreSQL database and the Razorpay emulator,
// with gateway faults, notifications delivered late, twice, out of order or never, a
// SIGKILL of one process mid-run, then the reconciliation sweep and the money checks.
//
// The seed fixes every operation and every choice inside it; the interleaving of
// concurrent requests (and so which request meets which injected fault) is the
// machine's, so two runs with one seed are alike, not identical.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { EVENT_SCOPE, PAID_SCOPE, tierScope } from '../../src/modules/events/events.service.js';
import { checkLedger } from '../../src/modules/ledger/ledger.service.js';
import { sweep, type SweepSummary } from '../../src/modules/reconciliation/reconcile.service.js';
import { bookingFees } from '../../src/modules/registrations/fees.js';
import { ManualClock } from '../../src/shared/clock.js';
import { call, createKey, signup, uniqueEmail, verifyFromMailFiles } from '../helpers/http.js';
import { pick, seededRandom, type Random } from '../helpers/prng.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { signWebhook, startRazorpayEmulator, type EmulatorNotification, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';

export interface RunOptions {
  operations: number;
  seed: number;
  /** postgres://… of a server where the run may create and drop its own database. */
  databaseUrl: string;
  concurrency?: number;
  /** Probability that a gateway request meets a fault. */
  faultRate?: number;
  /**
   * Operation kinds that were held back while the holes they meet were open: promo codes
   * at their maxUses limit (now reserved with the order), a repeat subscribe while an
   * order is open, and event deletion (now refused while money is in flight; staff force
   * refunds first). The run scripts turn them on.
   */
  includePromoLimitOps?: boolean;
  includeRepeatSubscribeOps?: boolean;
  includeEventDeletionOps?: boolean;
  /** Control run: no sweep during or after the run, to show what the checks catch without it. */
  withoutReconciliation?: boolean;
  log?: (line: string) => void;
}

export interface RunFigures {
  seed: number;
  operations: number;
  byKind: Record<string, number>;
  faults: Record<string, number>;
  orders: number;
  payments: number;
  refunds: number;
  confirmedBookings: number;
  confirmedPeriods: number;
  sweeps: SweepSummary[];
  mismatches: string[];
  seconds: number;
}

const creds = { keyId: 'rzp_live_ReconcileRun01', keySecret: 'reconcilerunsecret000000' };
const WEBHOOK_SECRET = 'reconcile-run-webhook-secret';
const TIMEOUT_MS = 800;

type Kind =
  | 'book_pay_step2'
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
  | 'delete_event';

async function createDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(baseUrl);
  const name = `${base.pathname.slice(1) || 'svc'}_reconcile_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
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

export async function runReconciliation(options: RunOptions): Promise<RunFigures> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const concurrency = options.concurrency ?? 6;
  const faultRate = options.faultRate ?? 0.06;
  const top = seededRandom(options.seed);
  const rzp: RazorpayEmulator = await startRazorpayEmulator(creds);
  const db = await createDatabase(options.databaseUrl);
  const dirs: string[] = [];
  const staffEmail = uniqueEmail('staff');
  const env = (dir: string) => ({
    DATABASE_URL: db.url,
    DATA_DIR: dir,
    SESSION_SECRET: 'reconcile-run-session-secret-0123456789abcdef',
    SECRETS_KEY: 'reconcile-run-secrets-key-0123456789abcdefgh',
    RATE_LIMIT_PER_MINUTE: '1000000',
    EMAIL_DNS_CHECK: 'false',
    WORKERS: 'true',
    LOG_LEVEL: 'error',
    STAFF_EMAILS: staffEmail,
    RAZORPAY_KEY_ID: creds.keyId,
    RAZORPAY_KEY_SECRET: creds.keySecret,
    RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    RAZORPAY_API_URL: rzp.url,
    RAZORPAY_TIMEOUT_MS: String(TIMEOUT_MS),
    // The processes sweep during the run too, on every order at once.
    RECONCILE_AFTER_MINUTES: '0',
    RECONCILE_EVERY_SECONDS: options.withoutReconciliation ? '86400' : '3',
  });
  const newDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-reconcile-'));
    dirs.push(d);
    return d;
  };
  const procs: (ServiceProcess | undefined)[] = [];
  const figures: RunFigures = {
    seed: options.seed,
    operations: 0,
    byKind: {},
    faults: { service_kills: 0, notifications_late: 0, notifications_twice: 0, notifications_never: 0, notifications_reordered: 0 },
    orders: 0,
    payments: 0,
    refunds: 0,
    confirmedBookings: 0,
    confirmedPeriods: 0,
    sweeps: [],
    mismatches: [],
    seconds: 0,
  };
  try {
    // ---------------------------------------------------------------- set-up (no faults yet)
    procs.push(await startProcess(env(newDir())), await startProcess(env(newDir())));
    const url0 = procs[0]!.url;
    // Staff rights and live keys need a verified address: each opens the link of its mail.
    const staff = await signup(url0, { email: staffEmail });
    const orgAccount = await signup(url0);
    for (const a of [staff, orgAccount]) await verifyFromMailFiles(url0, dirs, a.email);
    const { key } = await createKey(url0, orgAccount.token, { mode: 'live' });
    await call(url0, 'POST', `/admin/api/accounts/${orgAccount.userId}/organiser-access`, { token: staff.token, body: { canPublish: true } });

    const alive = () => procs.filter((p): p is ServiceProcess => p !== undefined);
    const anyUrl = (r: Random) => pick(r, alive()).url;
    const api = async (r: Random, method: string, path: string, body?: unknown) => {
      try {
        return await call(anyUrl(r), method, path, { key, body });
      } catch (err) {
        // The process died under the request: the outcome is unknown to the client.
        return { status: 0, body: { error: String(err) } as any, headers: new Headers(), text: String(err) };
      }
    };

    interface EventInfo {
      id: string;
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
        body: { title: `Run ${i}`, description: 'reconciliation run', startDate: '2027-03-01', price, capacity, ...(team ? { maxTeamSize: 3 } : {}), ...(tier ? { specialPrices: [tier] } : {}) },
      });
      if (r.status !== 201) throw new Error(`event: ${r.status} ${r.text}`);
      const id = r.body.data.id as string;
      await call(url0, 'PATCH', `/api/v1/events/${id}`, { key, body: { status: 'published' } });
      // Ticket mail renders QR codes: not what this run measures.
      await call(url0, 'POST', `/admin/api/events/${id}/ticket-emails`, { token: staff.token, body: { enabled: false } });
      const info: EventInfo = { id, price, ...(tier ? { tier: tier.name } : {}) };
      if (options.includePromoLimitOps && i % 3 === 0) {
        await call(url0, 'POST', `/api/v1/events/${id}/promo-codes`, { key, body: { code: `LIMIT${i}`, discountPercent: 20, maxUses: 2 } });
        info.promo = `LIMIT${i}`;
      }
      events.push(info);
    }
    const plans: string[] = [];
    for (const [i, amount] of [299, 1200].entries()) {
      const r = await call(url0, 'POST', '/api/v1/memberships/plans', { key, body: { name: `Term ${i}`, amount, kind: 'fixed_term', termMonths: 1 + i * 11 } });
      if (r.status !== 201) throw new Error(`plan: ${r.status} ${r.text}`);
      plans.push(r.body.data.id);
    }

    // ---------------------------------------------------------------- operations
    rzp.chaos({ random: seededRandom(options.seed ^ 0x5eed), rate: faultRate, delayMs: TIMEOUT_MS + 300 });
    const pool: EmulatorNotification[] = [];
    const knownBookings: { eventId: string; registrationId: string }[] = [];
    const deletedEvents = new Set<string>();
    const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

    const weights: [Kind, number][] = [
      ['book_pay_step2', 22],
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
      ...(options.includePromoLimitOps ? ([['promo_limit_booking', 6]] as [Kind, number][]) : []),
      ...(options.includeRepeatSubscribeOps ? ([['repeat_subscribe', 4]] as [Kind, number][]) : []),
      ...(options.includeEventDeletionOps ? ([['delete_event', 1]] as [Kind, number][]) : []),
    ];
    const total = weights.reduce((s, [, w]) => s + w, 0);
    const plan: Kind[] = Array.from({ length: options.operations }, () => {
      let x = top() * total;
      for (const [k, w] of weights) if ((x -= w) < 0) return k;
      return weights[0]![0];
    });
    const opSeeds = plan.map(() => Math.floor(top() * 2 ** 31));

    const liveEvents = () => events.filter((e) => !deletedEvents.has(e.id));
    async function step1(r: Random, extra: Record<string, unknown> = {}, event = pick(r, liveEvents())) {
      const team = r() < 0.25 ? [{ name: 'Friend', email: uniqueEmail('friend') }] : [];
      const body: Record<string, unknown> = { name: 'Buyer', email: uniqueEmail('buyer'), ...extra };
      if (event.tier && r() < 0.3) body.ticketType = event.tier;
      let s = await api(r, 'POST', `/api/v1/events/${event.id}/register`, { ...body, ...(team.length > 0 ? { teamMembers: team } : {}) });
      // Not a team event: book alone.
      if (s.status === 400 && team.length > 0) s = await api(r, 'POST', `/api/v1/events/${event.id}/register`, body);
      if (s.status !== 201) return undefined;
      knownBookings.push({ eventId: event.id, registrationId: s.body.registrationId });
      return { eventId: event.id, registrationId: s.body.registrationId as string, orderId: s.body.orderId as string };
    }
    const step2 = async (r: Random, b: { eventId: string; registrationId: string; orderId: string }, paymentId: string) => {
      let a = await api(r, 'POST', `/api/v1/events/${b.eventId}/register`, { registrationId: b.registrationId, orderId: b.orderId, paymentId });
      // A client that saw a gateway failure sometimes tries again, sometimes gives up.
      if ((a.status === 502 || a.status === 0) && r() < 0.5) a = await api(r, 'POST', `/api/v1/events/${b.eventId}/register`, { registrationId: b.registrationId, orderId: b.orderId, paymentId });
      return a;
    };
    const organiserEnd = async (r: Random, b: { eventId: string; registrationId: string }, action: 'cancel' | 'refund') => {
      const a = await api(r, 'POST', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/${action}`);
      if ((a.status === 502 || a.status === 0) && r() < 0.5) await api(r, 'POST', `/api/v1/events/${b.eventId}/registrations/${b.registrationId}/${action}`);
    };
    const pay = (orderId: string, capture = true) => {
      try {
        return String(rzp.pay(orderId, { capture }).id);
      } catch {
        return undefined;
      }
    };
    async function subscribe(r: Random, email = uniqueEmail('member'), planId = pick(r, plans)) {
      const s = await api(r, 'POST', '/api/v1/memberships/subscribe', { planId, name: 'Member', email });
      if (s.status !== 201 && s.status !== 200) return undefined;
      return s.body as { membershipId: string; orderId?: string };
    }
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
        for (let t = 0; t < times; t++) {
          await call(anyUrl(r), 'POST', '/webhooks/razorpay', {
            raw: note.body,
            headers: { 'content-type': 'application/json', 'x-razorpay-signature': signWebhook(note.body, WEBHOOK_SECRET), 'x-razorpay-event-id': note.eventId },
          }).catch(() => undefined);
        }
      }
    }

    async function runOp(kind: Kind, r: Random): Promise<void> {
      switch (kind) {
        case 'book_pay_step2':
        case 'book_duplicate_step2': {
          const b = await step1(r);
          if (!b) return;
          const p = pay(b.orderId);
          if (!p) return;
          if (kind === 'book_duplicate_step2') await Promise.all([step2(r, b, p), step2(r, b, p), sleep(r() * 20).then(() => step2(r, b, p))]);
          else await step2(r, b, p);
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
        case 'book_cancel_race': {
          const b = await step1(r);
          const p = b && pay(b.orderId);
          if (!b || !p) return;
          await Promise.all([step2(r, b, p), sleep(r() * 30).then(() => organiserEnd(r, b, 'cancel'))]);
          return;
        }
        case 'book_refund_race': {
          const b = await step1(r);
          const p = b && pay(b.orderId);
          if (!b || !p) return;
          await Promise.all([step2(r, b, p), sleep(r() * 40).then(() => organiserEnd(r, b, r() < 0.5 ? 'refund' : 'cancel'))]);
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
          if (!s?.orderId) return;
          const p = pay(s.orderId, r() < 0.85);
          if (p && kind === 'member_pay_confirm') {
            const a = await api(r, 'POST', `/api/v1/memberships/${s.membershipId}/confirm`, { orderId: s.orderId, paymentId: p });
            if ((a.status === 502 || a.status === 0) && r() < 0.5) await api(r, 'POST', `/api/v1/memberships/${s.membershipId}/confirm`, { orderId: s.orderId, paymentId: p });
          }
          return;
        }
        case 'member_cancel_race': {
          const s = await subscribe(r);
          const p = s?.orderId && pay(s.orderId);
          if (!s?.orderId || !p) return;
          await Promise.all([
            api(r, 'POST', `/api/v1/memberships/${s.membershipId}/confirm`, { orderId: s.orderId, paymentId: p }),
            sleep(r() * 30).then(() => api(r, 'POST', `/api/v1/memberships/${s.membershipId}/cancel`, { immediate: true })),
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
          const bookings = await Promise.all([0, 1, 2].map(() => step1(r, { promoCode: event.promo }, event)));
          await Promise.all(
            bookings.map(async (b) => {
              const p = b && pay(b.orderId);
              if (b && p) await step2(r, b, p);
            }),
          );
          return;
        }
        case 'repeat_subscribe': {
          const email = uniqueEmail('repeat');
          const planId = pick(r, plans);
          const first = await subscribe(r, email, planId);
          const second = await subscribe(r, email, planId);
          const p = first?.orderId && pay(first.orderId);
          if (first && p) await api(r, 'POST', `/api/v1/memberships/${first.membershipId}/confirm`, { orderId: first.orderId, paymentId: p });
          if (second?.orderId && r() < 0.5) pay(second.orderId);
          return;
        }
        case 'delete_event': {
          const candidates = liveEvents();
          if (candidates.length <= 3) return;
          const event = pick(r, candidates);
          // The organiser (refused while paid bookings stand), or staff with force=true.
          const asStaff = r() < 0.5;
          const a = await call(anyUrl(r), 'DELETE', `/api/v1/events/${event.id}${asStaff ? '?force=true' : ''}`, { token: asStaff ? staff.token : orgAccount.token }).catch(() => undefined);
          if (a && (a.status === 200 || a.status === 204)) deletedEvents.add(event.id);
          return;
        }
      }
    }

    let next = 0;
    let killed = false;
    const killAt = Math.floor(options.operations / 2);
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= plan.length) return;
        if (i === killAt && !killed) {
          killed = true;
          // Mid-run, one process dies without warning while requests are in flight.
          const victim = procs[1]!;
          procs[1] = undefined;
          await victim.stop('SIGKILL');
          figures.faults.service_kills!++;
          log(`killed one service process (SIGKILL) at operation ${i}; restarting it`);
          void startProcess(env(newDir())).then((p) => {
            procs[1] = p;
          });
        }
        const kind = plan[i]!;
        await runOp(kind, seededRandom(opSeeds[i]!)).catch((err: unknown) => log(`operation ${i} (${kind}) threw: ${String(err)}`));
        figures.operations++;
        figures.byKind[kind] = (figures.byKind[kind] ?? 0) + 1;
        if (figures.operations % 500 === 0) log(`${figures.operations} operations`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    while (procs[1] === undefined) await sleep(100);

    // ---------------------------------------------------------------- the end: late notifications, then reconciliation
    await deliver(seededRandom(options.seed + 1), true);
    rzp.chaos(undefined);
    for (const [k, v] of Object.entries(rzp.faults)) figures.faults[`gateway_${k}`] = v;
    // Let in-flight lost answers land at the emulator before the processes stop.
    await sleep(TIMEOUT_MS + 500);
    for (const p of alive()) await p.stop('SIGTERM');

    const dir = newDir();
    const config = loadConfig({ ...env(dir), WORKERS: 'false', RECONCILE_AFTER_MINUTES: '30' });
    // Hours ahead: every open order is due, every refund job's back-off has passed.
    const clock = new ManualClock(new Date(Date.now() + 2 * 3_600_000));
    const deps = await createDeps(config, { clock, logger: pino({ level: 'silent' }) });
    try {
      for (let round = 0; round < 4; round++) {
        if (!options.withoutReconciliation) figures.sweeps.push(await sweep(deps));
        for (let i = 0; i < 200 && (await deps.jobs.runOnce()) > 0; i++);
        clock.advance(6 * 3_600_000);
      }
      if (figures.sweeps.length > 0) log(`sweeps: ${figures.sweeps.map((s) => `checked ${s.checked}, confirmed ${s.confirmed}, captured ${s.captured}, refunded ${s.refunded}, ended ${s.endedRefunded}, orphans ${s.orphansFound}, errors ${s.errors}`).join(' | ')}`);
      await verify(deps.db, rzp, orgAccount.userId, figures);
      // The ledger agrees with what the run left: recomputed from bookings, refunds and
      // payouts, every account's balance matches its entries.
      const ledgerCheck = await checkLedger(deps.db);
      for (const m of ledgerCheck.mismatches) figures.mismatches.push(`ledger ${m.accountId} ${m.mode} ${m.source}: recomputed ${m.expectedPaise}, ledger ${m.ledgerPaise}${m.detail ? ` (${m.detail})` : ''}`);
      log(`ledger check: ${ledgerCheck.accountsChecked} accounts, ${ledgerCheck.mismatches.length} mismatches`);
    } finally {
      await deps.close();
    }
  } finally {
    for (const p of procs) await p?.stop('SIGKILL');
    await rzp.close();
    await db.drop().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    figures.seconds = Math.round((Date.now() - started) / 1000);
  }
  return figures;
}

async function verify(db: import('kysely').Kysely<import('../../src/db/database.js').Database>, rzp: RazorpayEmulator, accountId: string, figures: RunFigures): Promise<void> {
  const miss = (m: string) => figures.mismatches.push(m);
  const regs = await db.selectFrom('registrations').selectAll().where('account_id', '=', accountId).execute();
  const gos = await db.selectFrom('gateway_orders').selectAll().where('account_id', '=', accountId).execute();
  const regByOrder = new Map(regs.filter((r) => r.order_id).map((r) => [r.order_id!, r]));
  const goByOrder = new Map(gos.filter((g) => g.order_id).map((g) => [g.order_id!, g]));
  const captured = [...rzp.payments.values()].filter((p) => p.status === 'captured' || p.status === 'refunded');
  figures.orders = rzp.orders.size;
  figures.payments = captured.length;
  figures.refunds = captured.filter((p) => Number(p.amount_refunded) > 0).length;
  figures.confirmedBookings = regs.filter((r) => r.status === 'confirmed' && Number(r.amount_paise) > 0).length;
  figures.confirmedPeriods = gos.filter((g) => g.kind === 'membership' && g.payment_id !== null).length;

  // 1. Per order: the gateway's captured minus refunded is what the service holds as confirmed.
  for (const order of rzp.orders.values()) {
    const id = String(order.id);
    const net = captured.filter((p) => p.order_id === id).reduce((s, p) => s + Number(p.amount) - Number(p.amount_refunded), 0);
    const reg = regByOrder.get(id);
    const go = goByOrder.get(id);
    const held = reg ? (reg.status === 'confirmed' ? Number(reg.amount_paise) : 0) : go?.kind === 'membership' && go.payment_id ? Number(go.amount_paise) : 0;
    if (net !== held) miss(`order ${id}: gateway holds ${net} paise net, the service ${held} (${reg ? `booking ${reg.id} ${reg.status}` : go ? `${go.kind} ${go.outcome}` : 'unknown to the service'})`);
  }
  // 2. Every captured payment is a confirmed booking or period, or fully refunded.
  for (const p of captured) {
    const id = String(p.id);
    const booking = regs.find((r) => r.payment_id === id && r.status === 'confirmed');
    const period = gos.find((g) => g.payment_id === id);
    const refunded = Number(p.amount_refunded) === Number(p.amount);
    if ((booking || period) && Number(p.amount_refunded) > 0) miss(`payment ${id}: refunded ${p.amount_refunded} yet confirmed`);
    if (!booking && !period && !refunded) miss(`payment ${id} of ${p.order_id}: captured ${p.amount}, refunded ${p.amount_refunded}, confirmed nowhere`);
  }
  for (const r of regs) {
    if (r.status === 'confirmed' && Number(r.amount_paise) > 0) {
      const p = r.payment_id ? rzp.payments.get(r.payment_id) : undefined;
      if (!p || p.status !== 'captured' || Number(p.amount_refunded) !== 0) miss(`booking ${r.id}: confirmed without a captured, unrefunded payment`);
    }
  }
  // 3. Seats taken equal confirmed head counts.
  const counters = await db.selectFrom('seat_counters').innerJoin('events', 'events.id', 'seat_counters.event_id').select(['seat_counters.event_id', 'scope', 'taken', 'seat_counters.capacity']).where('events.account_id', '=', accountId).execute();
  for (const c of counters) {
    const holders = regs.filter(
      (r) =>
        r.event_id === c.event_id &&
        r.status === 'confirmed' &&
        (c.scope === EVENT_SCOPE || (c.scope === PAID_SCOPE && Number(r.amount_paise) > 0) || c.scope === tierScope(r.ticket_type)),
    );
    const heads = holders.reduce((s, r) => s + r.quantity, 0);
    if (heads !== c.taken) miss(`event ${c.event_id} ${c.scope}: ${c.taken} seats taken, ${heads} confirmed heads`);
    if (c.capacity > 0 && c.taken > c.capacity) miss(`event ${c.event_id} ${c.scope}: ${c.taken} taken over capacity ${c.capacity}`);
  }
  // 4. Promo uses never exceed their limits.
  const promos = await db.selectFrom('promo_codes').innerJoin('events', 'events.id', 'promo_codes.event_id').select(['promo_codes.code', 'uses', 'max_uses']).where('events.account_id', '=', accountId).execute();
  for (const p of promos) if (p.max_uses !== null && p.uses > p.max_uses) miss(`promo ${p.code}: ${p.uses} uses over its limit of ${p.max_uses}`);
  // … nor do the bookings that hold the discount: confirmed ones plus those still waiting.
  for (const p of promos) {
    if (p.max_uses === null) continue;
    const holders = regs.filter((r) => r.promo_code === p.code && (r.status === 'confirmed' || r.status === 'pending')).length;
    if (holders > p.max_uses) miss(`promo ${p.code}: ${holders} bookings hold it, over its limit of ${p.max_uses}`);
  }
  // 5. Fees per §9, to the paisa: the gateway's 3 % exactly; the platform's at some ordinal.
  for (const r of regs) {
    if (r.status !== 'confirmed' || Number(r.amount_paise) === 0) continue;
    const unit = Math.floor(Number(r.amount_paise) / r.quantity);
    const soldMax = regs.filter((x) => x.event_id === r.event_id).reduce((s, x) => s + x.quantity, 0);
    let ok = false;
    for (let sold = 0; sold <= soldMax && !ok; sold++) {
      const f = bookingFees(unit, r.quantity, sold);
      ok = f.platform === Number(r.platform_fee_paise) && f.gateway === Number(r.gateway_fee_paise);
    }
    if (!ok) miss(`booking ${r.id}: fees ${r.platform_fee_paise}/${r.gateway_fee_paise} paise do not follow §9 for ${r.quantity} × ${unit}`);
  }
}

export function formatFigures(f: RunFigures): string {
  const faults = Object.entries(f.faults).map(([k, v]) => `${k} ${v}`).join(', ');
  const faultTotal = Object.values(f.faults).reduce((s, v) => s + v, 0);
  return [
    `seed ${f.seed} (RECONCILE_SEED=${f.seed} replays it)`,
    `operations ${f.operations}: ${Object.entries(f.byKind).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `faults injected ${faultTotal}: ${faults}`,
    `gateway orders ${f.orders}, captured payments ${f.payments}, refunds ${f.refunds}, confirmed paid bookings ${f.confirmedBookings}, confirmed membership periods ${f.confirmedPeriods}`,
    `mismatches ${f.mismatches.length}`,
    ...f.mismatches.slice(0, 50).map((m) => `  - ${m}`),
    `took ${f.seconds} s`,
  ].join('\n');
}
