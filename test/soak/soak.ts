// The soak (docs/decisions/19-developers-and-operators.md, "three instances under fire"): three service processes on
// one PostgreSQL database and one Redis, mixed load for a while (free and paid registrations,
// payments and their notifications through the Razorpay emulator, door scans, broadcasts),
// one instance killed with SIGKILL every KILL_EVERY seconds and started again on its own
// DATA_DIR, then the invariants of docs/decisions/19-developers-and-operators.md checked from each side's own records:
// - no acknowledged booking lost: every 201 is a stored, confirmed booking;
// - no seat oversold: per event, confirmed heads ≤ capacity, and the seat counter agrees;
// - no ticket admitted twice: at most one admit answer `changed: true` per ticket, and every
//   ticket the door admitted is stored as checked in;
// - no payment confirmed twice: per gateway order at most one captured payment kept
//   (captured − refunded), and it is the payment of the booking the service confirmed;
// - no broadcast mail twice: per broadcast and recipient at most one mail (docs/operations/background-work.md:
//   "at most once"), and every recipient of an acknowledged send gets one;
// - ticket mails and webhooks within the guarantees of docs/operations/background-work.md: every confirmed booking's
//   ticket mail is sent (retried until sent: at least once), every `registration.confirmed`
//   webhook is delivered or recorded as failed (one attempt: at most once), and no job is left
//   pending once the workers have drained.
// Requests to a killed instance fail; they are not acknowledged and promise nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { call, createKey, signup, verifyFromMailFiles } from '../helpers/http.js';
import { pick, seededRandom, type Random } from '../helpers/prng.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { signWebhook, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { createDatabase } from '../reliability/driver.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

export interface SoakOptions {
  seconds: number;
  killEverySeconds: number;
  /** postgres://… of a server where the soak may create and drop its own database. */
  databaseUrl: string;
  redisUrl: string;
  seed?: number;
  /** Concurrent callers. */
  callers?: number;
  log?: (line: string) => void;
}

export interface SoakFigures {
  seconds: number;
  kills: number;
  acknowledged: { free: number; paid: number };
  refusedOrFailed: number;
  admits: number;
  rescans: number;
  broadcasts: number;
  broadcastMails: number;
  ticketMails: number;
  webhooksDelivered: number;
  webhooksFailed: number;
  notificationsDelivered: number;
  drainSeconds: number;
  violations: string[];
}

const creds = { keyId: 'rzp_live_SoakRun0000001', keySecret: 'soakrunsecret00000000000' };
const WEBHOOK_SECRET = 'soak-run-webhook-secret';
const BROADCAST_EVERY_MS = 10_000;

/** Headers and the To/Subject of every .eml under the instances' DATA_DIRs. */
function mails(dirs: readonly string[]): { to: string; subject: string }[] {
  const out: { to: string; subject: string }[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(join(dir, 'mail')).filter((n) => n.endsWith('.eml'));
    } catch {
      continue;
    }
    for (const name of names) {
      const head = readFileSync(join(dir, 'mail', name), 'utf8')
        .split(/\r?\n\r?\n/, 1)[0]!
        .replace(/\r?\n[ \t]+/g, ' ');
      const to = /^To: (.*)$/im.exec(head)?.[1]?.trim().toLowerCase() ?? '';
      const subject = /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '';
      out.push({ to: /<([^>]+)>/.exec(to)?.[1] ?? to, subject });
    }
  }
  return out;
}

async function receiver(): Promise<{ server: Server; url: string; deliveries: string[] }> {
  const deliveries: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.push(String(req.headers['x-service-event-id'] ?? ''));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    server,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`,
    deliveries,
  };
}

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 1;
  const started = Date.now();
  const f: SoakFigures = {
    seconds: 0,
    kills: 0,
    acknowledged: { free: 0, paid: 0 },
    refusedOrFailed: 0,
    admits: 0,
    rescans: 0,
    broadcasts: 0,
    broadcastMails: 0,
    ticketMails: 0,
    webhooksDelivered: 0,
    webhooksFailed: 0,
    notificationsDelivered: 0,
    drainSeconds: 0,
    violations: [],
  };
  const rzp: RazorpayEmulator = await startRazorpayEmulator(creds);
  const db = await createDatabase(options.databaseUrl, seed);
  const hook = await receiver();
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'svc-soak-')));
  const env = (dir: string): Record<string, string> => ({
    DATABASE_URL: db.url,
    REDIS_URL: options.redisUrl,
    DATA_DIR: dir,
    SESSION_SECRET: 'soak-run-session-secret-0123456789abcdef0123',
    SECRETS_KEY: 'soak-run-secrets-key-0123456789abcdefghijk',
    ...RAISED_LIMITS,
    EMAIL_DNS_CHECK: 'false',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'error',
    STAFF_EMAILS: 'staff@example.in',
    RAZORPAY_KEY_ID: creds.keyId,
    RAZORPAY_KEY_SECRET: creds.keySecret,
    RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    RAZORPAY_API_URL: rzp.url,
    RECONCILE_EVERY_SECONDS: '5',
  });
  const procs: (ServiceProcess | undefined)[] = [];
  const client = new pg.Client({ connectionString: db.url });
  try {
    for (const d of dirs) procs.push(await startProcess(env(d), 120_000));
    await client.connect();
    const url0 = procs[0]!.url;
    const staff = await signup(url0, { email: 'staff@example.in' });
    const org = await signup(url0, { email: 'organiser@example.in' });
    for (const a of [staff, org]) await verifyFromMailFiles(url0, dirs, a.email);
    const { key } = await createKey(url0, org.token, { mode: 'live' });
    await call(url0, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const hooked = await call(url0, 'PUT', '/api/v1/webhooks', { key, body: { url: hook.url } });
    if (hooked.status !== 200) throw new Error(`webhook: ${hooked.status} ${hooked.text}`);
    const events: { id: string; price: number; capacity: number }[] = [];
    for (const [price, capacity] of [
      [0, 400],
      [0, 60],
      [0, 0],
      [250, 300],
      [499, 40],
    ] as const) {
      const r = await call(url0, 'POST', '/api/v1/events', {
        key,
        body: {
          title: `Soak ${events.length}`,
          description: 'soak',
          startDate: '2027-03-01',
          price,
          capacity,
        },
      });
      if (r.status !== 201) throw new Error(`event: ${r.status} ${r.text}`);
      await call(url0, 'PATCH', `/api/v1/events/${r.body.data.id}`, { key, body: { status: 'published' } });
      events.push({ id: r.body.data.id, price, capacity });
    }

    // ------------------------------------------------------------ the load
    const live = () => procs.filter((p): p is ServiceProcess => p !== undefined);
    const anyUrl = (r: Random) => pick(r, live()).url;
    const api = async (r: Random, method: string, path: string, body?: unknown) => {
      try {
        return await call(anyUrl(r), method, path, { key, body });
      } catch {
        return undefined;
      }
    };
    const booked = new Map<
      string,
      { eventId: string; email: string; paid: boolean; orderId?: string; paymentId?: string }
    >();
    const admitted = new Map<string, number>();
    const broadcastsSent: { subject: string; recipients: number }[] = [];
    let seq = 0;
    let nextBroadcast = 0;
    let stopping = false;
    const until = Date.now() + options.seconds * 1000;

    const notifyAll = async (r: Random) => {
      for (const note of rzp.takeNotifications()) {
        const sent = await call(anyUrl(r), 'POST', '/webhooks/razorpay', {
          raw: note.body,
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': signWebhook(note.body, WEBHOOK_SECRET),
            ...(note.eventId ? { 'x-razorpay-event-id': note.eventId } : {}),
          },
        }).catch(() => undefined);
        if (sent?.status === 200) f.notificationsDelivered++;
      }
    };

    async function one(r: Random): Promise<void> {
      const x = r();
      if (x < 0.45) {
        const ev = pick(
          r,
          events.filter((e) => e.price === 0),
        );
        const email = `free-${++seq}@example.in`;
        const a = await api(r, 'POST', `/api/v1/events/${ev.id}/register`, { name: 'Soak Buyer', email });
        if (a?.status === 201) {
          booked.set(a.body.registrationId, { eventId: ev.id, email, paid: false });
          f.acknowledged.free++;
        } else f.refusedOrFailed++;
      } else if (x < 0.7) {
        const ev = pick(
          r,
          events.filter((e) => e.price > 0),
        );
        const email = `paid-${++seq}@example.in`;
        const s = await api(r, 'POST', `/api/v1/events/${ev.id}/register`, { name: 'Soak Payer', email });
        if (s?.status !== 201) return void f.refusedOrFailed++;
        const payment = String(rzp.pay(s.body.orderId).id);
        // Half the buyers' browsers come back for step 2; the rest rely on the notification.
        if (r() < 0.5) {
          const a = await api(r, 'POST', `/api/v1/events/${ev.id}/register`, {
            registrationId: s.body.registrationId,
            orderId: s.body.orderId,
            paymentId: payment,
          });
          if (a?.status === 200 || a?.status === 201) {
            booked.set(s.body.registrationId, {
              eventId: ev.id,
              email,
              paid: true,
              orderId: s.body.orderId,
              paymentId: payment,
            });
            f.acknowledged.paid++;
          }
        }
      } else if (x < 0.92) {
        const confirmed = [...booked.entries()];
        if (confirmed.length === 0) return;
        const [id, b] = pick(r, confirmed);
        const a = await api(r, 'POST', `/api/v1/events/${b.eventId}/check-in`, { registrationId: id });
        if (a && a.status < 300 && a.body.changed === true) {
          admitted.set(id, (admitted.get(id) ?? 0) + 1);
          f.admits++;
        } else if (a && a.status < 300) f.rescans++;
      } else if (x < 0.97 || Date.now() < nextBroadcast) {
        await notifyAll(r);
      } else {
        // An organiser mails their attendees now and then (every few seconds at most), not
        // as often as the load could: each broadcast is a mail job per attendee.
        nextBroadcast = Date.now() + BROADCAST_EVERY_MS;
        const ev = pick(r, events);
        const subject = `Soak news ${++seq}`;
        const preview = await api(r, 'POST', `/api/v1/events/${ev.id}/broadcast`, {
          subject,
          message: 'Doors open at ten.',
          dryRun: true,
        });
        if (preview?.status !== 200 && preview?.status !== 201) return;
        const sent = await api(r, 'POST', `/api/v1/events/${ev.id}/broadcast`, {
          subject,
          message: 'Doors open at ten.',
          dryRun: false,
          confirmedRecipientCount: preview.body.recipientCount,
        });
        if (sent?.status === 200 || sent?.status === 201) {
          broadcastsSent.push({ subject, recipients: Number(sent.body.sent) });
          f.broadcasts++;
        }
      }
    }

    // A kill every killEverySeconds on the wall clock, whatever the restarts take; the victim is
    // one of the instances running at that moment, and starts again in the background.
    const restarts: Promise<void>[] = [];
    const killer = (async () => {
      const r = seededRandom(seed + 7);
      let next = Date.now() + options.killEverySeconds * 1000;
      while (!stopping) {
        while (!stopping && Date.now() < next) await new Promise((res) => setTimeout(res, 100));
        if (stopping) return;
        next += options.killEverySeconds * 1000;
        const running = [0, 1, 2].filter((k) => procs[k] !== undefined);
        if (running.length < 2) continue;
        const i = pick(r, running);
        const victim = procs[i]!;
        procs[i] = undefined;
        await victim.stop('SIGKILL');
        f.kills++;
        log(
          `killed instance ${i} (SIGKILL) after ${Math.round((Date.now() - started) / 1000)} s; starting it again`,
        );
        restarts.push(
          startProcess(env(dirs[i]!), 120_000).then((p) => {
            procs[i] = p;
          }),
        );
      }
    })();
    await Promise.all(
      Array.from({ length: options.callers ?? 12 }, async (_, c) => {
        const r = seededRandom(seed * 1000 + c);
        while (Date.now() < until) await one(r).catch(() => void f.refusedOrFailed++);
      }),
    );
    stopping = true;
    await killer;
    await Promise.all(restarts);

    // ------------------------------------------------------------ drain, then the invariants
    const drainStarted = Date.now();
    const r = seededRandom(seed + 9);
    for (let i = 0; i < 1200; i++) {
      await notifyAll(r);
      const pending = await client.query<{ n: string }>(
        `select count(*) as n from jobs where status = 'pending'`,
      );
      if (Number(pending.rows[0]!.n) === 0) break;
      // Waiting on the workers (observable state, bounded): lease expiries of killed workers included.
      await new Promise((res) => setTimeout(res, 500));
    }
    f.drainSeconds = Math.round((Date.now() - drainStarted) / 1000);
    await checkInvariants(
      client,
      rzp,
      { booked, admitted, broadcastsSent, events, dirs, hook: hook.deliveries },
      f,
    );
  } finally {
    for (const p of procs) await p?.stop('SIGKILL');
    await client.end().catch(() => undefined);
    await rzp.close();
    hook.server.close();
    await db.drop().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    f.seconds = Math.round((Date.now() - started) / 1000);
  }
  return f;
}

interface Seen {
  booked: Map<
    string,
    { eventId: string; email: string; paid: boolean; orderId?: string; paymentId?: string }
  >;
  admitted: Map<string, number>;
  broadcastsSent: { subject: string; recipients: number }[];
  events: { id: string; price: number; capacity: number }[];
  dirs: string[];
  hook: string[];
}

async function checkInvariants(
  client: pg.Client,
  rzp: RazorpayEmulator,
  seen: Seen,
  f: SoakFigures,
): Promise<void> {
  const bad = (m: string) => f.violations.push(m);
  const regs = new Map(
    (
      await client.query<{
        id: string;
        status: string;
        event_id: string;
        payment_id: string | null;
        order_id: string | null;
        email: string;
      }>('select id, status, event_id, payment_id, order_id, email from registrations')
    ).rows.map((row) => [row.id, row]),
  );
  for (const [id, b] of seen.booked) {
    const row = regs.get(id);
    if (!row) bad(`acknowledged booking ${id} is not stored`);
    else if (row.status !== 'confirmed') bad(`acknowledged booking ${id} is ${row.status}`);
    else if (b.paid && row.payment_id !== b.paymentId)
      bad(`booking ${id} confirmed with payment ${row.payment_id}, the buyer paid ${b.paymentId}`);
  }
  const heads = await client.query<{ event_id: string; n: string }>(
    `select r.event_id, count(*) as n from attendees a join registrations r on r.id = a.registration_id where r.status = 'confirmed' group by r.event_id`,
  );
  const counters = new Map(
    (
      await client.query<{ event_id: string; taken: number }>(
        `select event_id, taken from seat_counters where scope = 'event'`,
      )
    ).rows.map((c) => [c.event_id, Number(c.taken)]),
  );
  for (const ev of seen.events) {
    const n = Number(heads.rows.find((h) => h.event_id === ev.id)?.n ?? 0);
    if (ev.capacity > 0 && n > ev.capacity)
      bad(`event ${ev.id}: ${n} confirmed heads over a capacity of ${ev.capacity}`);
    const counted = counters.get(ev.id);
    if (counted !== undefined && ev.capacity > 0 && counted < n)
      bad(`event ${ev.id}: seat counter ${counted} below ${n} confirmed heads`);
  }
  for (const [id, n] of seen.admitted) if (n > 1) bad(`ticket ${id} admitted ${n} times`);
  const checkedIn = new Set(
    (
      await client.query<{ registration_id: string }>(
        'select distinct registration_id from attendees where checked_in_at is not null',
      )
    ).rows.map((row) => row.registration_id),
  );
  for (const id of seen.admitted.keys())
    if (!checkedIn.has(id)) bad(`ticket ${id} was admitted at the door but is not stored as checked in`);
  // Payments: per gateway order at most one captured payment kept.
  const keptByOrder = new Map<string, string[]>();
  for (const p of rzp.payments.values()) {
    const kept = p.status === 'captured' && Number(p.amount_refunded ?? 0) < Number(p.amount);
    if (kept)
      keptByOrder.set(String(p.order_id), [...(keptByOrder.get(String(p.order_id)) ?? []), String(p.id)]);
  }
  for (const [order, kept] of keptByOrder)
    if (kept.length > 1) bad(`order ${order} keeps ${kept.length} captured payments`);
  for (const row of regs.values()) {
    if (row.status !== 'confirmed' || row.order_id === null) continue;
    const kept = keptByOrder.get(row.order_id) ?? [];
    if (kept.length !== 1 || kept[0] !== row.payment_id)
      bad(
        `booking ${row.id} confirmed with ${row.payment_id}; the gateway keeps [${kept.join(', ')}] for its order`,
      );
  }
  // Mail: broadcast at most once per recipient, ticket mail at least once per confirmed booking.
  const all = mails(seen.dirs);
  const failedRecipients = new Map(
    (
      await client.query<{ subject: string; n: string }>(
        `select b.subject, count(*) as n from broadcast_recipients r join broadcasts b on b.id = r.broadcast_id where r.status = 'failed' group by b.subject`,
      )
    ).rows.map((row) => [row.subject, Number(row.n)]),
  );
  for (const b of seen.broadcastsSent) {
    const to = all.filter((m) => m.subject === b.subject).map((m) => m.to);
    f.broadcastMails += to.length;
    const twice = to.filter((t, i) => to.indexOf(t) !== i);
    if (twice.length > 0) bad(`broadcast "${b.subject}" mailed ${twice[0]} more than once`);
    // At most once: a worker killed mid-send leaves its recipient failed rather than mailing twice.
    const failed = failedRecipients.get(b.subject) ?? 0;
    if (new Set(to).size + failed < b.recipients)
      bad(
        `broadcast "${b.subject}" acknowledged ${b.recipients} recipients, mailed ${new Set(to).size}, ${failed} recorded failed`,
      );
  }
  const ticketMailsTo = new Set(all.filter((m) => !m.subject.startsWith('Soak news')).map((m) => m.to));
  for (const row of regs.values()) {
    if (row.status !== 'confirmed') continue;
    if (ticketMailsTo.has(row.email.toLowerCase())) f.ticketMails++;
    else bad(`confirmed booking ${row.id} has no ticket mail`);
  }
  // Webhooks: one attempt each, recorded; a receiver never sees one event twice.
  const twice = seen.hook.filter((id, i) => seen.hook.indexOf(id) !== i);
  if (twice.length > 0)
    bad(`webhook event ${twice[0]} delivered ${seen.hook.filter((x) => x === twice[0]).length} times`);
  f.webhooksDelivered = new Set(seen.hook).size;
  const jobs = await client.query<{ topic: string; status: string; n: string }>(
    `select topic, status, count(*) as n from jobs group by topic, status`,
  );
  for (const j of jobs.rows) {
    if (j.status === 'pending') bad(`${j.n} ${j.topic} jobs still pending after the drain`);
    if (j.status === 'dead' && /^(ticket|account)\./.test(j.topic))
      bad(`${j.n} ${j.topic} jobs dead (mail is retried until sent)`);
    if (j.status === 'dead' && /webhook/.test(j.topic)) f.webhooksFailed += Number(j.n);
  }
  const confirmedCount = [...regs.values()].filter((row) => row.status === 'confirmed').length;
  if (f.webhooksDelivered + f.webhooksFailed < confirmedCount)
    bad(
      `${confirmedCount} bookings confirmed, ${f.webhooksDelivered} webhooks delivered and ${f.webhooksFailed} recorded failed`,
    );
}
