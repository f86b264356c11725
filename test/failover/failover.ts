// One failover (docs/operations/high-availability.md): three service instances on the highly
// available PostgreSQL of ha-cluster.ts, through HAProxy, under the mixed load of mixed-load.ts
// (bookings on a hot event and spread over small ones, paid bookings confirmed through the
// Razorpay emulator, door admits, a broadcast) from many callers; the primary's machine dies
// (Patroni and every PostgreSQL process of it SIGKILLed); the standby is promoted; then what
// callers rely on is checked:
// - every instance stays up and answers again (an acknowledged write), within BACK_WITHIN_MS of the kill;
// - while there is no primary, an answer is an acknowledgement or a 503 with Retry-After,
//   never a 500 and never a dropped connection;
// - no acknowledged write is lost: every booking, paid confirmation and admit is on the new
//   primary; nothing is sold past capacity, confirmed by one payment twice or admitted twice;
// - the job workers carry on: every ticket mail and the broadcast queued, before or after, is sent;
// - the door's LISTEN connection is back on the new primary: every instance's
//   `door_listener_connects_total` counts a reconnect, and its roster shows the last admits.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sleep } from '../../src/db/embedded-process.js';
import { uniqueEmail } from '../helpers/http.js';
import { START_ENV, startProcess, type ServiceProcess } from '../helpers/process.js';
import { gatewayEnv, startRazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { startHaCluster } from './ha-cluster.js';
import {
  type Acknowledged,
  broadcast,
  checkLoad,
  makeCaller,
  rostersCatchUp,
  setUpWorld,
} from './mixed-load.js';

const creds = { keyId: 'rzp_live_FailoverEmulator1', keySecret: 'failoveremulatorsecret00' };

export const BACK_WITHIN_MS = 30_000;

export interface FailoverOptions {
  /** Concurrent callers, spread over the three instances. */
  callers?: number;
  /** Load before the kill. */
  beforeMs?: number;
  /** Load once every instance booked again. */
  afterMs?: number;
  log?: (line: string) => void;
  /**
   * The planted fault (`npm run failover:fault`): asynchronous replication, the standby's WAL
   * receiver frozen for `lagMs` before the kill, and the standby promoted however far behind. The
   * checks must then report acknowledged bookings lost.
   */
  fault?: { lagMs: number };
}

export interface FailoverFigures {
  /** Free bookings acknowledged (201). */
  acknowledged: number;
  /** Paid bookings confirmed, door admits, broadcasts accepted. */
  payments: number;
  admits: number;
  broadcasts: number;
  /** 503s with Retry-After while no primary answered. */
  refused: number;
  /** From the kill to the promoted node answering as primary (Patroni's REST API). */
  promotedAfterMs: number;
  /** Per instance, from the kill to the first acknowledgement of a request sent after it. */
  backAfterMs: number[];
  lost: number;
  mailsLeft: number;
  violations: string[];
}

export async function runFailover(o: FailoverOptions = {}): Promise<FailoverFigures> {
  const log = o.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'svc-failover-'));
  chmodSync(dir, 0o755); // the database's user reaches its cluster directory through it
  const cluster = await startHaCluster(join(dir, 'cluster'), o.fault === undefined);
  const rzp = await startRazorpayEmulator(creds);
  const procs: ServiceProcess[] = [];
  const f: FailoverFigures = {
    acknowledged: 0,
    payments: 0,
    admits: 0,
    broadcasts: 0,
    refused: 0,
    promotedAfterMs: Number.NaN,
    backAfterMs: [],
    lost: 0,
    mailsLeft: 0,
    violations: [],
  };
  try {
    const first = await cluster.settled();
    log(
      `cluster settled: ${first.name} leads, the other is its ${o.fault ? 'asynchronous' : 'synchronous'} standby`,
    );
    await createDatabase(cluster.url(), 'svc');
    const staffEmail = uniqueEmail('failover-staff');
    const dataDirs = [0, 1, 2].map((i) => mkdtempSync(join(dir, `svc${i}-`)));
    const env = (i: number): Record<string, string> => ({
      ...START_ENV,
      ...gatewayEnv(rzp, creds),
      STAFF_EMAILS: staffEmail,
      DATABASE_URL: cluster.url('svc'),
      DATA_DIR: dataDirs[i]!,
      SESSION_SECRET: 'failover-run-session-secret-0123456789abcdef',
      SECRETS_KEY: 'failover-run-secrets-key-0123456789abcdefgh',
      EMAIL_DNS_CHECK: 'false',
      LOG_LEVEL: 'error',
    });
    for (let i = 0; i < 3; i++) procs.push(await startProcess(env(i), 120_000, [], ['dist/server.js']));
    log('three instances ready');
    const world = await setUpWorld(procs[0]!.url, dataDirs, staffEmail);

    const acked: Acknowledged = { bookings: [], hot: [], payments: [], admits: [], broadcasts: 0 };
    let killedAt = 0;
    const back = new Map<number, number>();
    let seq = 0;
    const stopAt = { t: Number.POSITIVE_INFINITY };
    const deadline = Date.now() + (o.beforeMs ?? 10_000) + 120_000;
    const urls = () => procs.map((p) => p.url);
    const door = { next: 0 };
    const caller = async (c: number) => {
      const me = makeCaller(c, { urls, world, rzp, acked, violations: f.violations, door });
      while (Date.now() < stopAt.t && Date.now() < deadline) {
        const i = (c + seq++) % procs.length;
        const { sent, acked: ok, refused } = await me.step(i);
        if (refused) f.refused++;
        if (ok && killedAt > 0 && sent > killedAt && !back.has(i)) back.set(i, Date.now() - killedAt);
      }
    };
    const load = Promise.all(Array.from({ length: o.callers ?? 24 }, (_, c) => caller(c)));

    await sleep(o.beforeMs ?? 10_000);
    const dead = (await cluster.primary())!;
    const standby = cluster.nodes.find((n) => n !== dead)!;
    if (o.fault) {
      cluster.replication(standby, false);
      log(`planted fault: ${standby.name}'s WAL receiver frozen for ${o.fault.lagMs} ms before the kill`);
      await sleep(o.fault.lagMs);
    }
    const ackedBefore = acked.bookings.length;
    killedAt = Date.now();
    cluster.kill(dead);
    // The planted fault: the WAL received but unread dies with the link (the standby's server
    // restarts its receiver, and Patroni promotes it however far behind it is).
    if (o.fault) cluster.cutReplication(standby);
    log(`${ackedBefore} bookings acknowledged; ${dead.name}'s machine killed`);
    // A broadcast sent while there is no primary: refused until one answers, then queued once.
    const news = broadcast(procs[1]!.url, world, f.violations);
    for (;;) {
      const now = await cluster.primary();
      if (now && now !== dead) {
        f.promotedAfterMs = Date.now() - killedAt;
        log(`${now.name} promoted after ${f.promotedAfterMs} ms`);
        break;
      }
      if (Date.now() > killedAt + 120_000) {
        f.violations.push('no node was promoted within 120 s');
        break;
      }
      await sleep(200);
    }
    while (back.size < procs.length && Date.now() < killedAt + 120_000) await sleep(200);
    stopAt.t = Date.now() + (o.afterMs ?? 5_000);
    await load;
    if (await news) acked.broadcasts += 1;
    f.acknowledged = acked.bookings.length;
    f.payments = acked.payments.length;
    f.admits = new Set(acked.admits).size;
    f.broadcasts = acked.broadcasts;
    f.backAfterMs = procs.map((_, i) => back.get(i) ?? Number.NaN);
    for (const [i, ms] of f.backAfterMs.entries())
      if (!(ms <= BACK_WITHIN_MS))
        f.violations.push(`instance ${i} answered again after ${ms} ms (at most ${BACK_WITHIN_MS})`);
    for (const [i, p] of procs.entries())
      if (p.child.exitCode !== null) f.violations.push(`instance ${i} exited: ${p.stderr().slice(-500)}`);

    const db = new pg.Client({ connectionString: cluster.url('svc') });
    await db.connect();
    try {
      f.lost = await checkLoad(db, world, acked, f.violations);
      const drainBy = Date.now() + 180_000;
      for (;;) {
        const left = await db.query<{ n: string }>(`select count(*) as n from jobs where status = 'pending'`);
        f.mailsLeft = Number(left.rows[0]!.n);
        if (f.mailsLeft === 0 || Date.now() > drainBy) break;
        await sleep(500);
      }
      if (f.mailsLeft > 0) f.violations.push(`${f.mailsLeft} jobs still pending 180 s after the load`);
    } finally {
      await db.end();
    }
    await rostersCatchUp(urls(), world, acked, f.violations);
    for (const [i, p] of procs.entries()) {
      const metrics = await (await fetch(`${p.url}/metrics`)).text();
      const connects = Number(/^door_listener_connects_total (\d+)$/m.exec(metrics)?.[1] ?? 0);
      if (connects < 2)
        f.violations.push(`instance ${i}: the door listener connected ${connects} times, not again`);
    }
    if (f.violations.length > 0) log(cluster.logs());
    return f;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await cluster.stop();
    await rzp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Creates `name` through HAProxy, again while a freshly settled cluster still restarts a server. */
async function createDatabase(url: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    admin.on('error', () => {}); // a dropped connection fails the query below
    try {
      await admin.connect();
      await admin.query(`create database ${name}`);
      return;
    } catch (err) {
      if (/already exists/.test(String(err))) return;
      if (attempt >= 60) throw err;
      await sleep(500);
    } finally {
      await admin.end().catch(() => {});
    }
  }
}
