// The embedded default beside PostgreSQL, in one run. Each run starts the service the way
// `npm start` does (the compiled service, one process, background workers on) on an empty
// DATA_DIR, then 100 connections register for one hot event (free, no capacity limit) for
// BENCH_SECONDS. Measured: registrations/s, latency p50/p99/max, timeouts and errors, the
// service's peak RSS, the embedded server's own processes apart, the start-up time, how long
// the queued ticket mails take to go out, CPU per registration, and the stop. `npm run bench`
// runs it with the others and writes BENCHMARKS.md; `npm run bench:embedded` runs it alone
// (building first) and prints its section.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { errors as undiciErrors, Pool } from 'undici';
import { freePort, START_ENV } from '../test/helpers/process.js';
import { databaseFacts } from './database.js';
import {
  account,
  APP,
  backendsOf,
  cpuMeter,
  freshDatabase,
  latencySummary,
  rounds,
  settings,
  startEnvText,
  tagged,
} from './lib.js';
import { num, renderSection, type DatabaseFacts, type Run, type Section, type Target } from './report.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
/** Runs of each configuration: the slowest request is to stay under 500 ms in each of five. */
export const EMBEDDED_RUNS = Number(process.env.BENCH_EMBEDDED_RUNS ?? 5);
const TIMEOUT_MS = 10_000;
const DRAIN_LIMIT_S = Number(process.env.BENCH_DRAIN_LIMIT_SECONDS ?? 300);

interface Memory {
  rss: number;
  pss: number;
}

const mb = (kb: number) => kb / 1024;

function status(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function pss(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The postmaster and its children. */
function serverProcesses(postmaster: number): number[] {
  const out = [postmaster];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (parentOf(pid) === postmaster) out.push(pid);
  }
  return out.filter((p) => existsSync(`/proc/${p}`));
}

function postmasterOf(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(join(dataDir, 'db', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

async function startCompiled(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; startupMs: number; stderr(): string }> {
  const port = await freePort();
  const started = performance.now();
  let errors = '';
  // BENCH_SERVICE_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the service.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'dist/server.js'], {
    env: { ...process.env, ...START_ENV, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', process.env.BENCH_SERVICE_STDOUT ? 'inherit' : 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${errors}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`service did not become ready: ${errors}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { url, child, startupMs: performance.now() - started, stderr: () => errors };
}

async function drive(
  pool: Pool,
  seconds: number,
  path: string,
  headers: Record<string, string>,
  seq: { n: number },
) {
  const load1 = loadavg()[0]!;
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let timeouts = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const i = seq.n++;
        const t = performance.now();
        try {
          const r = await pool.request({
            method: 'POST',
            path,
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Person ${i}`, email: `p${i}@example.in` }),
          });
          await r.body.text();
          if (r.statusCode === 201) ok++;
          else errors++;
        } catch (err) {
          if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError)
            timeouts++;
          else errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const over500 = latencies.filter((l) => l > 500).length;
  return {
    load1,
    ok,
    errors,
    timeouts,
    done: latencies.length,
    rps: ok / elapsed,
    over500,
    ...latencySummary(latencies),
  };
}

/** The service's event-loop delay since the last scrape (ms), from its /metrics (prom-client's default metrics). */
async function loopDelay(url: string): Promise<{ max?: number; p99?: number }> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const read = (name: string) => {
      const m = new RegExp(`^${name} ([0-9.eE+-]+)$`, 'm').exec(text);
      return m ? Number(m[1]) * 1000 : undefined;
    };
    return { max: read('nodejs_eventloop_lag_max_seconds'), p99: read('nodejs_eventloop_lag_p99_seconds') };
  } catch {
    return {};
  }
}

/** The embedded server's version, settings and flush time, read in the first embedded run. */
let embeddedFacts: DatabaseFacts | undefined;

async function run(embedded: boolean): Promise<Run> {
  const { seconds } = settings;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-emb-'));
  const database = embedded ? undefined : await freshDatabase('embedded');
  const service = await startCompiled({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '1000000',
    EMAIL_DNS_CHECK: 'false',
    WORKERS: process.env.BENCH_WORKERS ?? 'true',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const pool = new Pool(service.url, {
    connections: CONNECTIONS,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  try {
    const { key } = await account(service.url);
    const headers = { 'x-api-key': key };
    const create = async (title: string) =>
      (
        await fetch(`${service.url}/api/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ title, description: 'bench', startDate: '2026-12-31', capacity: 0 }),
        }).then((r) => r.json() as Promise<{ data: { id: string } }>)
      ).data.id;
    // No warm-up: the rush meets a service that has just started, its code not yet optimised,
    // and the 100 connections open at once (the pool opens them on the first requests).
    const hot = await create('Hot event');
    const seq = { n: 0 };

    // Peak memory while the load runs.
    let serviceRss = 0;
    let database_: (Memory & { processes: number }) | undefined;
    const postmaster = embedded ? postmasterOf(dataDir) : undefined;
    const sample = () => {
      serviceRss = Math.max(serviceRss, status(service.child.pid!, 'VmRSS'));
      if (postmaster) {
        const pids = serverProcesses(postmaster);
        const rss = pids.reduce((s, p) => s + status(p, 'VmRSS'), 0);
        const pss_ = pids.reduce((s, p) => s + pss(p), 0);
        if (!database_ || pss_ > database_.pss) database_ = { rss, pss: pss_, processes: pids.length };
      }
    };
    // CPU seconds each part uses during the measured window: the service, the database (the
    // embedded server's own processes; on the shared server the backends of the service's
    // connections to its database, by pid), and this load generator.
    const watcher = database
      ? new pg.Pool({ connectionString: tagged(database.url, APP.driver), max: 1 })
      : undefined;
    const meter = await cpuMeter(
      () => [service.child.pid!],
      watcher
        ? backendsOf(watcher, (name) => name !== APP.driver)
        : async () => (postmaster ? serverProcesses(postmaster) : []),
    );
    // The service's event-loop delay during the load (prom-client's monitorEventLoopDelay
    // histogram, which each scrape reads and resets): a scrape before starts it afresh.
    await loopDelay(service.url);
    const sampler = setInterval(sample, 250);
    const result = await drive(pool, seconds, `/api/v1/events/${hot}/register`, headers, seq);
    clearInterval(sampler);
    const loop = await loopDelay(service.url);
    sample();
    const used = await meter();
    await watcher?.end();
    const cpu = { service: used.processes, database: used.database, load: used.generator };

    // Every acknowledged registration is stored.
    const client = new pg.Client(
      embedded
        ? { host: join(dataDir, 'db'), port: 5432, user: 'postgres', database: 'postgres' }
        : { connectionString: database!.url },
    );
    await client.connect();
    const stored = (
      await client.query(
        `select count(*)::int as n from registrations where event_id = $1 and status = 'confirmed'`,
        [hot],
      )
    ).rows[0].n as number;
    const pending = async () =>
      (await client.query(`select count(*)::int as n from jobs where status = 'pending'`)).rows[0]
        .n as number;
    const jobsPending = await pending();
    // The workers yield to requests under the rush; how long the mails take to catch up after it.
    const drainStarted = performance.now();
    let drainSeconds: number | undefined;
    while (performance.now() - drainStarted < DRAIN_LIMIT_S * 1000) {
      if ((await pending()) === 0) {
        drainSeconds = (performance.now() - drainStarted) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    // After the load and the mails, so the flush test meets a quiet disk.
    if (embedded && !embeddedFacts) embeddedFacts = await databaseFacts('embedded (first run)', client);
    await client.end();

    await pool.close();
    const stopStarted = performance.now();
    service.child.kill('SIGTERM');
    const exitCode = await new Promise<number | null>((r) =>
      service.child.exitCode !== null
        ? r(service.child.exitCode)
        : service.child.once('exit', (code) => r(code)),
    );
    const stopMs = performance.now() - stopStarted;
    if (exitCode !== 0) console.error(`the service exited ${exitCode} on SIGTERM: ${service.stderr()}`);
    const left = postmaster ? serverProcesses(postmaster) : [];
    if (left.length > 0)
      console.error(
        spawnSync('ps', ['-o', 'pid,ppid,stat,args', '-p', left.join(',')], { encoding: 'utf8' }).stdout,
      );

    const per = (cpuS: number) => (result.ok > 0 ? (cpuS / result.ok) * 1000 : undefined);
    return {
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      max: result.max,
      done: result.done,
      errors: result.errors + result.timeouts,
      load1: result.load1,
      extra: {
        timeouts: result.timeouts,
        over500: result.over500,
        loopMax: loop.max,
        loopP99: loop.p99,
        acknowledged: result.ok,
        stored,
        startup: service.startupMs,
        rss: mb(serviceRss),
        dbPss: database_ ? mb(database_.pss) : undefined,
        dbRss: database_ ? mb(database_.rss) : undefined,
        dbProcesses: database_?.processes,
        pending: jobsPending,
        drain: drainSeconds,
        cpuService: per(cpu.service),
        cpuDatabase: per(cpu.database),
        cpuLoad: per(cpu.load),
        stop: stopMs,
        exitCode: exitCode ?? -1,
        left: postmaster ? left.length : undefined,
      },
    };
  } finally {
    await pool.close().catch(() => {});
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const EMBEDDED_NAMES = { embedded: 'embedded (default)', postgres: 'PostgreSQL (DATABASE_URL)' };

/** The embedded default's targets. */
export const EMBEDDED_TARGETS: Target[] = [
  {
    label: 'Registrations per second on the embedded default',
    subject: EMBEDDED_NAMES.embedded,
    figure: 'rps',
    compare: 'atLeast',
    value: 1000,
    unit: '/s',
    digits: 0,
  },
  {
    label: 'p99 on the embedded default',
    subject: EMBEDDED_NAMES.embedded,
    figure: 'p99',
    compare: 'below',
    value: 150,
    unit: 'ms',
    digits: 1,
  },
  {
    label: 'Slowest request on the embedded default',
    subject: EMBEDDED_NAMES.embedded,
    figure: 'max',
    compare: 'atMost',
    value: 500,
    unit: 'ms',
    digits: 0,
  },
  {
    label: 'Service RSS on the embedded default',
    subject: EMBEDDED_NAMES.embedded,
    figure: 'rss',
    compare: 'below',
    value: 250,
    unit: 'MB',
    digits: 0,
  },
  {
    label: 'Start-up of the embedded default on an empty DATA_DIR',
    subject: EMBEDDED_NAMES.embedded,
    figure: 'startup',
    compare: 'below',
    value: 5000,
    unit: 'ms',
    digits: 0,
  },
];

/** Runs both configurations in rounds; the caller builds the service first (`npm run build`). */
export async function embeddedBench(): Promise<{ section: Section; right: boolean; facts?: DatabaseFacts }> {
  const { seconds } = settings;
  const series = await rounds(EMBEDDED_RUNS, [
    { name: EMBEDDED_NAMES.embedded, run: () => run(true) },
    { name: EMBEDDED_NAMES.postgres, run: () => run(false) },
  ]);
  const all = series.flatMap((s) => s.runs.map((r, i) => ({ name: s.name, i, x: r.extra! })));
  const lost = all.filter(({ x }) => x.stored !== x.acknowledged);
  const left = all.filter(({ x }) => (x.left ?? 0) > 0 || x.exitCode !== 0);
  const notes = [
    lost.length === 0
      ? 'Every registration acknowledged in every run was stored.'
      : `**Registrations acknowledged but not stored**: ${lost.map(({ name, i, x }) => `${name} run ${i + 1}: ${num(x.acknowledged!)} acknowledged, ${num(x.stored!)} stored`).join('; ')}.`,
    left.length === 0
      ? 'Every run: the service exited 0 on SIGTERM, and no embedded server process was left after it.'
      : `**Stops that went wrong**: ${left.map(({ name, i, x }) => `${name} run ${i + 1}: exit ${x.exitCode}, server processes left ${x.left ?? 0}`).join('; ')}.`,
  ];
  const workers = (process.env.BENCH_WORKERS ?? 'true') !== 'false';
  return {
    right: lost.length === 0 && left.length === 0,
    facts: embeddedFacts,
    section: {
      title: 'Embedded default beside PostgreSQL',
      description: `Each run starts the service as \`npm start\` starts it (\`node dist/server.js\` with ${startEnvText}, one process, its defaults: pool of 20, log level info, ${
        workers
          ? "background workers on, so each registration's ticket mail is rendered and stored by the service's own worker, which shares the process with the requests"
          : '**background workers off (BENCH_WORKERS=false)**'
      }; only RATE_LIMIT_PER_MINUTE is raised, since every request carries the same key) on an empty DATA_DIR. Each configuration ran ${EMBEDDED_RUNS} times. Right after the service is ready, an account and one hot event (free, no capacity limit) are made, then ${CONNECTIONS} keep-alive connections, all opened at once as the load starts, register for ${seconds} s: no warm-up, so the slowest request includes the service's first seconds (code not yet optimised, 100 new connections to accept). Embedded: the PostgreSQL server the service runs itself (Unix socket in DATA_DIR; its settings and flush time are in the header). PostgreSQL: the machine's shared server. Start-up is from spawning the process to the first 200 from \`/readyz\` (initdb included for the embedded database; the TypeScript build is not). Service RSS is the peak during the load. Event-loop delay: the service's own \`monitorEventLoopDelay\` histogram (prom-client's default metrics, read from \`/metrics\` before and after the load), its p99 and its maximum during the load. The database's memory is the embedded server's processes' peak PSS (each shared page counted once, shared buffers included) and their summed RSS (a shared page counted in every process that touched it); the shared server's is not counted. CPU per registration is CPU time during the load divided by the registrations acknowledged; the database's is, embedded, every process of the server the service runs (the postmaster and its children, the WAL writer among them), and on the shared server the backends of the service's own connections to its database, found by pid in \`pg_stat_activity\` (the shared server's WAL writer and other users' backends are not counted). Mails: the ticket mail jobs still queued when the load stopped, and the seconds until none was left (given up after ${DRAIN_LIMIT_S} s).`,
      series,
      columns: [
        { key: 'timeouts', label: 'timeouts', digits: 0 },
        { key: 'over500', label: '> 500 ms', digits: 0 },
        { key: 'loopP99', label: 'event-loop delay p99 ms', digits: 1, missing: 'not read' },
        { key: 'loopMax', label: 'event-loop delay max ms', digits: 0, missing: 'not read' },
        { key: 'startup', label: 'start-up ms', digits: 0 },
        { key: 'rss', label: 'service RSS MB', digits: 0 },
        { key: 'dbPss', label: 'database PSS MB', digits: 0, missing: 'not counted' },
        { key: 'dbRss', label: 'database RSS summed MB', digits: 0, missing: 'not counted' },
        { key: 'dbProcesses', label: 'database processes', digits: 0, missing: 'not counted' },
        { key: 'pending', label: 'mails queued at the end', digits: 0 },
        { key: 'drain', label: 'mails sent after s', digits: 0, missing: `not within ${DRAIN_LIMIT_S} s` },
        { key: 'cpuService', label: 'CPU ms/registration: service', digits: 2 },
        { key: 'cpuDatabase', label: 'database', digits: 2 },
        { key: 'cpuLoad', label: 'load generator', digits: 2 },
        { key: 'stop', label: 'SIGTERM to exit ms', digits: 0 },
      ],
      comparisons: [
        { subject: EMBEDDED_NAMES.embedded, ceiling: EMBEDDED_NAMES.postgres },
        { subject: EMBEDDED_NAMES.embedded, ceiling: EMBEDDED_NAMES.postgres, figure: 'p99' },
      ],
      targets: EMBEDDED_TARGETS,
      notes,
    },
  };
}

export function build(): void {
  const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (b.status !== 0) throw new Error('npm run build failed');
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  build();
  embeddedBench()
    .then(({ section, right }) => {
      console.log(renderSection(section));
      if (!right) process.exitCode = 1;
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
