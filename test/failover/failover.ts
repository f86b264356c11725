// One failover (docs/operations/high-availability.md): three service instances on the highly
// available PostgreSQL of ha-cluster.ts, through HAProxy, booking under load from many callers;
// the primary's machine dies (Patroni and every PostgreSQL process of it SIGKILLed); the standby
// is promoted; then what callers rely on is checked:
// - every instance stays up and books again, within BACK_WITHIN_MS of the kill;
// - while there is no primary, an answer is a 201 for a booking stored or a 503 with Retry-After,
//   never a 500 and never a dropped connection;
// - no acknowledged booking is lost: every 201 is a confirmed booking on the new primary;
// - the job workers carry on: every ticket mail queued, before or after, is sent;
// - the door's LISTEN connection is back on the new primary: every instance's
//   `door_listener_connects_total` counts a reconnect.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sleep } from '../../src/db/embedded-process.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { call, organiser } from '../helpers/http.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { startHaCluster } from './ha-cluster.js';

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
  acknowledged: number;
  /** 503s with Retry-After while no primary answered. */
  refused: number;
  /** From the kill to the promoted node answering as primary (Patroni's REST API). */
  promotedAfterMs: number;
  /** Per instance, from the kill to the first 201 of a request sent after it. */
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
  const procs: ServiceProcess[] = [];
  const f: FailoverFigures = {
    acknowledged: 0,
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
    const env = (i: number): Record<string, string> => ({
      DATABASE_URL: cluster.url('svc'),
      DATA_DIR: mkdtempSync(join(dir, `svc${i}-`)),
      SESSION_SECRET: 'failover-run-session-secret-0123456789abcdef',
      SECRETS_KEY: 'failover-run-secrets-key-0123456789abcdefgh',
      EMAIL_DNS_CHECK: 'false',
      LOG_LEVEL: 'error',
    });
    for (let i = 0; i < 3; i++) procs.push(await startProcess(env(i), 120_000, [], ['dist/server.js']));
    log('three instances ready');
    const org = await organiser(procs[0]!.url);
    const eventId = await createEvent(keyApi(procs[0]!.url, org.key), { capacity: 0 });

    const acked: string[] = [];
    let killedAt = 0;
    const back = new Map<number, number>();
    let seq = 0;
    const stopAt = { t: Number.POSITIVE_INFINITY };
    const deadline = Date.now() + (o.beforeMs ?? 10_000) + 120_000;
    const caller = async (c: number) => {
      while (Date.now() < stopAt.t && Date.now() < deadline) {
        const i = (c + seq) % procs.length;
        const sent = Date.now();
        let r: Awaited<ReturnType<typeof call<{ registrationId: string }>>> | undefined;
        try {
          r = await call(procs[i]!.url, 'POST', `/api/v1/events/${eventId}/register`, {
            key: org.key,
            body: { name: 'Asha Rao', email: `failover-${++seq}@example.in` },
          });
        } catch (err) {
          f.violations.push(`instance ${i}: no answer (${(err as Error).message})`);
          await sleep(100);
          continue;
        }
        if (r.status === 201) {
          acked.push(r.body.registrationId);
          if (killedAt > 0 && sent > killedAt && !back.has(i)) back.set(i, Date.now() - killedAt);
        } else if (r.status === 503 && r.headers.get('retry-after')) {
          f.refused++;
          await sleep(Math.min(1000, Number(r.headers.get('retry-after')) * 1000));
        } else f.violations.push(`instance ${i}: ${r.status} ${r.text.slice(0, 200)}`);
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
    const ackedBefore = acked.length;
    killedAt = Date.now();
    cluster.kill(dead);
    if (o.fault) cluster.replication(standby, true);
    log(`${ackedBefore} bookings acknowledged; ${dead.name}'s machine killed`);
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
    f.acknowledged = acked.length;
    f.backAfterMs = procs.map((_, i) => back.get(i) ?? Number.NaN);
    for (const [i, ms] of f.backAfterMs.entries())
      if (!(ms <= BACK_WITHIN_MS))
        f.violations.push(`instance ${i} booked again after ${ms} ms (at most ${BACK_WITHIN_MS})`);
    for (const [i, p] of procs.entries())
      if (p.child.exitCode !== null) f.violations.push(`instance ${i} exited: ${p.stderr().slice(-500)}`);

    const db = new pg.Client({ connectionString: cluster.url('svc') });
    await db.connect();
    try {
      const stored = await db.query<{ id: string }>(
        `select id from registrations where id = any($1::text[]) and status = 'confirmed'`,
        [acked],
      );
      f.lost = acked.length - stored.rows.length;
      if (f.lost > 0) f.violations.push(`${f.lost} of ${acked.length} acknowledged bookings missing`);
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
