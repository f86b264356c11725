// Load-driving helpers for the benchmarks: requests from a fixed number of concurrent
// callers for a fixed time, on loopback only, with latency
// percentiles; runs repeated in interleaved rounds; the baselines' process and tables; CPU
// time of the run's own processes and database backends.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { freePort, START_ENV, startProcess, type ServiceProcess } from '../test/helpers/process.js';
import type { Run, Series } from './report.js';

/** Runs one request after another on each of `concurrency` callers for `seconds` (or until `limit` requests have started, or `stop()` holds). */
export async function load(
  concurrency: number,
  seconds: number,
  one: (i: number) => Promise<boolean>,
  limit = Number.POSITIVE_INFINITY,
  stop: () => boolean = () => false,
): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  let ok = 0;
  let errors = 0;
  const load1 = loadavg()[0]!;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && next < limit && !stop()) {
        const i = next++;
        const t = performance.now();
        let good = false;
        try {
          good = await one(i);
        } catch {
          good = false;
        }
        latencies.push(performance.now() - t);
        if (good) ok++;
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { ...latencySummary(latencies), rps: ok / elapsed, done: latencies.length, errors, load1 };
}

export function latencySummary(latencies: number[]): { p50: number; p99: number; max: number } {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { p50: pct(50), p99: pct(99), max: latencies[latencies.length - 1] ?? 0 };
}

export function show(name: string, r: Run): string {
  const rps = Number.isFinite(r.rps) ? r.rps.toFixed(0) : '—';
  return `${name.padEnd(44)} ${rps.padStart(7)} /s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   max ${r.max.toFixed(0).padStart(5)} ms   errors ${r.errors}`;
}

/** One configuration of a section: how to make one measured run of it. */
export interface Step {
  name: string;
  run(round: number): Promise<Run>;
}

/**
 * Runs every step `runs` times in rounds; the order within a round alternates (forward, then
 * backward), so neither a ceiling nor what is compared with it always goes first.
 */
export async function rounds(runs: number, steps: Step[]): Promise<Series[]> {
  const series: Series[] = steps.map((s) => ({ name: s.name, runs: [] }));
  for (let round = 0; round < runs; round++) {
    const order = steps.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const r = await steps[i]!.run(round);
      series[i]!.runs[round] = r;
      console.log(`[run ${round + 1}/${runs}] ${show(steps[i]!.name, r)}`);
    }
  }
  return series;
}

/** Seconds each measured run lasts (BENCH_SECONDS) and how many runs of each configuration (BENCH_RUNS). */
export const settings = {
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  runs: Number(process.env.BENCH_RUNS ?? 3),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
};

/** Tags a database URL with an application_name, by which the run's backends are told apart. */
export function tagged(databaseUrl: string, applicationName: string): string {
  const u = new URL(databaseUrl);
  u.searchParams.set('application_name', applicationName);
  return u.toString();
}

/** The application_name of each part's connections: the service's, the baselines', this driver's. */
export const APP = { service: 'bench-service', baseline: 'bench-baseline', driver: 'bench-driver' };

/**
 * The baselines' tables (bench/baseline-server.ts): the service's schema is never touched, and
 * none of them has a trigger. ref_events rows are made by the registration bench, ref_tickets by
 * the door bench, the seating tables (ref_seat_events, ref_event_seats: a row per seat of an
 * event, named by its index in plan order, with its category and rank) by the seats bench.
 */
export async function createBaselineTables(db: pg.Pool): Promise<void> {
  await db.query(
    `create table ref_events (id int primary key, capacity int not null, taken int not null default 0)`,
  );
  await db.query(
    `create table ref_registrations (id bigserial primary key, event_id int not null, name text not null, email text not null, created_at timestamptz not null default now())`,
  );
  await db.query(
    `create table ref_jobs (id bigserial primary key, topic text not null, payload jsonb not null, created_at timestamptz not null default now())`,
  );
  await db.query(
    `create table ref_tickets (id text primary key, event_id text not null, status text not null, ticket_type text not null, name text not null, email text not null, checked_in_at timestamptz)`,
  );
  await db.query(`create table ref_seat_events (id int primary key, seats int not null)`);
  await db.query(
    `create table ref_event_seats (event_id int not null, seat_id int not null, category text not null, rank int not null, status text not null default 'available', hold_token text, registration_id bigint, primary key (event_id, seat_id))`,
  );
  await db.query(
    `create index ref_event_seats_free on ref_event_seats (event_id, category, rank) where status = 'available'`,
  );
  await db.query(
    `create index ref_event_seats_taken on ref_event_seats (event_id) where status <> 'available'`,
  );
  await db.query(
    `create index ref_event_seats_by_hold on ref_event_seats (hold_token) where hold_token is not null`,
  );
}

/** The baseline routes (bench/baseline-server.ts, or another `script`) on their own process. */
export async function startBaseline(
  databaseUrl: string,
  script = 'bench/baseline-server.ts',
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: tagged(databaseUrl, APP.baseline) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`baseline server exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function httpPool(url: string, connections: number): Pool {
  return new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
}

export async function request(
  pool: Pool,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const r = await pool.request({
    method,
    path,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, text };
}

/** A fresh PostgreSQL database for one benchmark run. */
export async function freshDatabase(tag: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_${tag}_${Date.now()}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database "${name}"`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists "${name}" with (force)`);
      await d.end();
    },
  };
}

/** npm start's environment for the service, as written in its command (docs/operations/production.md). */
export const startEnvText = Object.entries(START_ENV)
  .map(([k, v]) => `\`${k}=${v}\``)
  .join(' ');

/** The service as `npm start` runs it (`node dist/server.js` with START_ENV: build first, `npm run build`), on `databaseUrl`. */
export async function startService(
  databaseUrl: string,
  extra: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ServiceProcess> {
  return startProcess(
    {
      ...START_ENV,
      DATABASE_URL: tagged(databaseUrl, APP.service),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')),
      SESSION_SECRET: 'bench-session-secret-0123456789abcdefghij',
      SECRETS_KEY: 'bench-secrets-key-0123456789abcdefghijklmn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      EMAIL_DNS_CHECK: 'false',
      LOG_LEVEL: 'warn',
      // The service's default pool (the test helper's own default is smaller).
      DATABASE_POOL_SIZE: '20',
      ...extra,
    },
    30_000,
    nodeArgs,
    ['dist/server.js'],
  );
}

export async function account(url: string): Promise<{ key: string; token: string; userId: string }> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.in`;
  const s = await fetch(`${url}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench password 123', name: 'Bench' }),
  }).then((r) => r.json() as Promise<{ idToken: string; userId: string }>);
  const k = await fetch(`${url}/dashboard/api/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.idToken}` },
    body: JSON.stringify({ mode: 'test', class: 'full' }),
  }).then((r) => r.json() as Promise<{ key: string }>);
  return { key: k.key, token: s.idToken, userId: s.userId };
}

/** CPU seconds a process has used (user + system), from /proc/<pid>/stat; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The PostgreSQL backends of the run's connections to its database whose application_name
 * passes `which` (the service's LISTEN connection names itself "door listener (pid …)"), by pid.
 */
export function backendsOf(
  db: pg.Pool,
  which: (applicationName: string) => boolean,
): () => Promise<number[]> {
  return async () => {
    const r = await db.query<{ pid: number; application_name: string }>(
      `select pid, application_name from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return r.rows.filter((x) => which(x.application_name)).map((x) => x.pid);
  };
}

/** Backends of the service's processes: its pools and its door listeners. */
export const serviceBackends = (name: string) => name === APP.service || name.startsWith('door listener');
export const baselineBackends = (name: string) => name === APP.baseline;

/**
 * CPU seconds used meanwhile by some processes, by the database backends `backends()` names, and
 * by this one. The backends are listed and read every half second, so one that connects during
 * the run counts from its start and one that exits counts up to its last reading; every other
 * process of the database server (other users' backends, the WAL writer, the checkpointer) is
 * left out.
 */
export async function cpuMeter(
  pids: () => number[],
  backends: () => Promise<number[]>,
): Promise<() => Promise<{ processes: number; database: number; generator: number }>> {
  const sum = (ps: number[]) => ps.reduce((s, p) => s + cpuSeconds(p), 0);
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const read = async (starting: boolean) => {
    for (const p of await backends()) {
      const cpu = cpuSeconds(p);
      if (!first.has(p)) first.set(p, starting ? cpu : 0);
      if (cpu > 0) last.set(p, cpu);
    }
  };
  await read(true);
  const processes = sum(pids());
  const generator = process.cpuUsage();
  let reading: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    reading = reading.then(() => read(false)).catch(() => {});
  }, 500);
  return async () => {
    clearInterval(timer);
    await reading;
    await read(false);
    let database = 0;
    for (const [p, cpu] of last) database += cpu - (first.get(p) ?? 0);
    const g = process.cpuUsage(generator);
    return { processes: sum(pids()) - processes, database, generator: (g.user + g.system) / 1e6 };
  };
}
