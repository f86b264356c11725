// The embedded default beside PostgreSQL, in one run. Each configuration starts the service
// the way `npm start` does (the compiled service, one process, background workers on) on an
// empty DATA_DIR, then 100 connections register for one hot event (free, no capacity limit)
// for 15 seconds. Reported: registrations/s, latency p50/p99/max, timeouts and errors, the
// service's peak RSS, the embedded server's own processes apart, and the start-up time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { errors as undiciErrors, Pool } from 'undici';
import { freePort } from '../test/helpers/process.js';
import { account, freshDatabase } from './lib.js';
import { writeSection } from './report.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const TIMEOUT_MS = 10_000;
const DRAIN_LIMIT_S = Number(process.env.BENCH_DRAIN_LIMIT_SECONDS ?? 300);

interface Memory {
  rss: number;
  pss: number;
}

interface Outcome {
  name: string;
  startupMs: number;
  registered: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  over500: number;
  timeouts: number;
  errors: number;
  serviceRss: number;
  database?: Memory & { processes: number };
  stored: number;
  jobsPending: number;
  /** Seconds from the end of the load until no job was left pending (the ticket mails sent), or undefined if not within DRAIN_LIMIT_S. */
  drainSeconds: number | undefined;
  stopMs: number;
  leftBehind: number;
  /** CPU seconds used during the measured window. */
  cpu: { service: number; database: number; load: number };
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

/** CPU seconds a process has used (user + system), from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
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

function processesNamed(name: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
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

async function startCompiled(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; startupMs: number; stderr(): string }> {
  const port = await freePort();
  const started = performance.now();
  let errors = '';
  // BENCH_SERVICE_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the service.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'dist/server.js'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
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

async function drive(pool: Pool, seconds: number, path: string, headers: Record<string, string>, seq: { n: number }) {
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
          if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) timeouts++;
          else errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { ok, errors, timeouts, rps: ok / elapsed, p50: pct(50), p99: pct(99), max: latencies[latencies.length - 1] ?? 0, over500: latencies.filter((l) => l > 500).length };
}

async function run(name: string, embedded: boolean): Promise<Outcome> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-emb-'));
  const database = embedded ? undefined : await freshDatabase('embedded');
  const service = await startCompiled({
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '1000000',
    EMAIL_DNS_CHECK: 'false',
    WORKERS: process.env.BENCH_WORKERS ?? 'true',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const pool = new Pool(service.url, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
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
    const warm = await create('Warm-up');
    const hot = await create('Hot event');
    const seq = { n: 0 };
    await drive(pool, WARMUP_SECONDS, `/api/v1/events/${warm}/register`, headers, seq);

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
    // CPU seconds each part uses during the measured window: the service, the database
    // (the embedded server's processes; for the shared server every process named postgres),
    // and this load generator.
    const databaseCpu = () => (postmaster ? serverProcesses(postmaster) : processesNamed('postgres')).reduce((s, p) => s + cpuSeconds(p), 0);
    const cpuBefore = { service: cpuSeconds(service.child.pid!), database: databaseCpu(), load: process.cpuUsage() };
    const sampler = setInterval(sample, 250);
    const result = await drive(pool, SECONDS, `/api/v1/events/${hot}/register`, headers, seq);
    clearInterval(sampler);
    sample();
    const loadUsage = process.cpuUsage(cpuBefore.load);
    const cpu = {
      service: cpuSeconds(service.child.pid!) - cpuBefore.service,
      database: databaseCpu() - cpuBefore.database,
      load: (loadUsage.user + loadUsage.system) / 1e6,
    };

    // Every acknowledged registration is stored.
    const client = new pg.Client(embedded ? { host: join(dataDir, 'db'), port: 5432, user: 'postgres', database: 'postgres' } : { connectionString: database!.url });
    await client.connect();
    const stored = (await client.query(`select count(*)::int as n from registrations where event_id = $1 and status = 'confirmed'`, [hot])).rows[0].n as number;
    const pending = async () => (await client.query(`select count(*)::int as n from jobs where status = 'pending'`)).rows[0].n as number;
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
    await client.end();

    await pool.close();
    const stopStarted = performance.now();
    service.child.kill('SIGTERM');
    const exitCode = await new Promise<number | null>((r) => (service.child.exitCode !== null ? r(service.child.exitCode) : service.child.once('exit', (code) => r(code))));
    const stopMs = performance.now() - stopStarted;
    if (exitCode !== 0) console.error(`${name}: the service exited ${exitCode} on SIGTERM: ${service.stderr()}`);
    const left = postmaster ? serverProcesses(postmaster) : [];
    if (left.length > 0) console.error(spawnSync('ps', ['-o', 'pid,ppid,stat,args', '-p', left.join(',')], { encoding: 'utf8' }).stdout);
    const leftBehind = left.length;

    return {
      name,
      startupMs: service.startupMs,
      registered: result.ok,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      max: result.max,
      over500: result.over500,
      timeouts: result.timeouts,
      errors: result.errors,
      serviceRss,
      ...(database_ ? { database: database_ } : {}),
      stored,
      jobsPending,
      drainSeconds,
      stopMs,
      leftBehind,
      cpu,
    };
  } finally {
    await pool.close().catch(() => {});
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // BENCH_POSTGRES_FIRST=1 swaps the order, to see whether running first or second matters.
  const order: [string, boolean][] = [['embedded (default)', true], ['PostgreSQL (DATABASE_URL)', false]];
  if (process.env.BENCH_POSTGRES_FIRST === '1') order.reverse();
  const outcomes: Outcome[] = [];
  // BENCH_ONLY=embedded (or postgres) runs one configuration, for profiling; BENCHMARKS.md is left alone.
  const only = process.env.BENCH_ONLY;
  if (only) {
    for (const [name, embedded] of order) if (embedded === (only === 'embedded')) console.log(await run(name, embedded));
    return;
  }
  for (const [name, embedded] of order) outcomes.push(await run(name, embedded));
  outcomes.sort((a, b) => (a.name.startsWith('embedded') ? -1 : b.name.startsWith('embedded') ? 1 : 0));
  for (const o of outcomes) console.log(o);

  const [emb] = outcomes as [Outcome, Outcome];
  const yes = (b: boolean) => (b ? 'met' : '**not met**');
  const lines = [
    '## Embedded default beside PostgreSQL (`npm run bench:embedded`)',
    '',
    `Each configuration is started as \`npm start\` starts it (\`node dist/server.js\`, one process, its defaults: pool of 20, log level info, background workers on, so each registration's ticket mail is rendered and stored by the service's own worker, which shares the process with the requests; only RATE_LIMIT_PER_MINUTE is raised, since every request carries the same key) on an empty DATA_DIR. ${CONNECTIONS} keep-alive connections register for one hot event (free, no capacity limit) for ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up on another event; load generator on the same machine. Embedded: the PostgreSQL server the service runs itself (fsync and synchronous_commit on, Unix socket in DATA_DIR). PostgreSQL: the machine's shared server (its processes are not counted). Start-up is from spawning the process to the first 200 from \`/readyz\`, on an empty DATA_DIR (initdb included for the embedded database; the TypeScript build that \`npm start\` runs first is not).`,
    '',
    '| configuration | registrations/s | p50 ms | p99 ms | max ms | > 500 ms | timeouts | errors | service RSS MB | database processes | start-up ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...outcomes.map(
      (o) =>
        `| ${o.name} | ${o.rps.toFixed(0)} | ${o.p50.toFixed(1)} | ${o.p99.toFixed(1)} | ${o.max.toFixed(0)} | ${o.over500} | ${o.timeouts} | ${o.errors} | ${mb(o.serviceRss).toFixed(0)} | ${
          o.database ? `${o.database.processes} processes, PSS ${mb(o.database.pss).toFixed(0)} MB (RSS summed ${mb(o.database.rss).toFixed(0)} MB)` : 'not counted (shared server)'
        } | ${o.startupMs.toFixed(0)} |`,
    ),
    '',
    ...outcomes.map(
      (o) =>
        `- ${o.name}: ${o.registered} registrations acknowledged, ${o.stored} stored; ${o.jobsPending} jobs (ticket mails) still queued when the load stopped, all sent ${
          o.drainSeconds === undefined ? `**not within ${DRAIN_LIMIT_S} s**` : `${o.drainSeconds.toFixed(0)} s later`
        }; CPU per registration during the load: service ${((o.cpu.service / o.registered) * 1000).toFixed(2)} ms, database ${((o.cpu.database / o.registered) * 1000).toFixed(2)} ms${
          o.database ? '' : ' (every postgres process on the machine)'
        }, load generator ${((o.cpu.load / o.registered) * 1000).toFixed(2)} ms; SIGTERM to exit ${o.stopMs.toFixed(0)} ms${o.database ? `, embedded server processes left after exit: ${o.leftBehind}` : ''}.`),
    `- Targets on the embedded default: 1,000 registrations/s or more: ${yes(emb.rps >= 1000)} (${emb.rps.toFixed(0)}); no request over 500 ms: ${yes(emb.max <= 500)} (max ${emb.max.toFixed(0)} ms); p99 under 150 ms: ${yes(emb.p99 < 150)} (${emb.p99.toFixed(1)} ms); service RSS under 250 MB: ${yes(emb.serviceRss < 250 * 1024)} (${mb(emb.serviceRss).toFixed(0)} MB); start-up under 5 s: ${yes(emb.startupMs < 5000)} (${(emb.startupMs / 1000).toFixed(1)} s).`,
    `- Load average (1 min) before the runs ${loadBefore.toFixed(1)}, after ${loadavg()[0]!.toFixed(1)}, on ${cpus().length} cores (the runs themselves keep every core busy): ${
      loadBefore >= cpus().length / 2 ? 'other work was running before the runs, and every figure is lower for it' : 'the machine was quiet before the runs'
    }.`,
    '- PSS counts each shared page once across the server\'s processes (shared buffers included); summed RSS counts it in every process that touched it.',
    '',
    'What moved these numbers (embedded default, measured while making the changes, on a 2-core AMD EPYC machine of the same kind on 2026-11-24): 419 registrations/s, p99 438 ms, max 751 ms before. Free bookings of one seat counter that queue behind its statement in flight are now written together (one counter claim and one commit for up to 64): about 1,050/s. The ticket QR drawn as a 1-bit PNG instead of by qrcode\'s 32-bit renderer that tried every row filter: its mails no longer dominate the service\'s CPU. Ticket mails handled a batch of 50 at a time with one read each for holders, events and organisers: about 1,400–1,900/s, and the mails queued by the rush sent in ~20–35 s instead of ~60 s. With the workers off (`BENCH_WORKERS=false`) the embedded default does about 2,200/s, p99 85 ms. V8\'s old generation limited to growing 2× (server.ts): service RSS ~180 MB instead of ~230 MB. The machine\'s speed varies by ±20 % from run to run, and now and then more: of four runs on 2026-11-24 on the Intel machine, one gave the embedded default 1,055/s, p99 208 ms, max 366 ms, with every process, the load generator included, using about 1.5× its usual CPU per registration (the others: 1,955, 1,627 and 1,808/s, p99 93–113 ms).',
  ];
  writeSection('embedded', lines.join('\n'));
  console.log(lines.join('\n'));
  if (outcomes.some((o) => o.stored !== o.registered || o.leftBehind > 0)) {
    console.error('LOST REGISTRATIONS OR SERVER LEFT RUNNING');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
