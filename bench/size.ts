// `npm run bench:size [-- --registrations N] [--events M] [--accounts A] [--output FILE |
// --no-write] [--plans FILE] [--keep]`: 10 million registrations over 10,000 events (by
// default) loaded set-based into a fresh PostgreSQL database of its own (bench_size_<time> on
// the server at BENCH_SIZE_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
// dropped at the end unless --keep), migrated by starting the compiled service once, then a
// page of registrations, analytics, the audit log, the dashboard's lists and an export
// measured over HTTP beside a hand-written baseline (bench/size-run.ts). The section is
// written into BENCHMARKS.md between its markers (--output FILE writes elsewhere, --no-write
// only prints), and the plans of the service's statements into docs/operations/size-plans.md
// (beside FILE as FILE's name + .plans.md with --output; --plans FILE to choose). BENCH_SECONDS,
// BENCH_RUNS and BENCH_WARMUP_SECONDS as for `npm run bench`; BENCH_SIZE_CONCURRENCY (default 8).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { build } from './embedded.js';
import { settings, startService } from './lib.js';
import { SIZE_DEFAULTS } from './size-data.js';
import { renderPlans } from './size-plans.js';
import { renderSize, type SizeRunFacts, withSizeSection } from './size-report.js';
import { runSize, type SizeFigures } from './size-run.js';

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

const stamp = () => `[${new Date().toISOString().slice(11, 19)}]`;

function options() {
  const { values } = parseArgs({
    options: {
      registrations: { type: 'string' },
      events: { type: 'string' },
      accounts: { type: 'string' },
      output: { type: 'string' },
      plans: { type: 'string' },
      'no-write': { type: 'boolean' },
      keep: { type: 'boolean' },
    },
  });
  const int = (v: string | undefined, fallback: number, name: string) => {
    if (v === undefined) return fallback;
    const n = Number(v.replaceAll('_', '').replaceAll(',', ''));
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number above 0`);
    return n;
  };
  const registrations = int(values.registrations, SIZE_DEFAULTS.registrations, 'registrations');
  const events = int(values.events, SIZE_DEFAULTS.events, 'events');
  if (registrations < events * 100) throw new Error('--registrations must be at least 100 an event');
  const output = values['no-write'] ? undefined : (values.output ?? 'BENCHMARKS.md');
  const plans =
    values.plans ??
    (output === undefined
      ? undefined
      : values.output
        ? `${output.replace(/\.md$/, '')}.plans.md`
        : 'docs/operations/size-plans.md');
  return {
    size: { registrations, events, accounts: int(values.accounts, SIZE_DEFAULTS.accounts, 'accounts') },
    output,
    plans,
    keep: values.keep === true,
  };
}

/** The command as run: the BENCH_* settings given, then npm's script and its arguments. */
function command(): string {
  const env = Object.keys(process.env)
    .filter((k) => k.startsWith('BENCH_'))
    .sort()
    .map((k) => `${k}=${process.env[k]}`);
  return [...env, `npm run bench:size -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '')].join(
    ' ',
  );
}

async function admin<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

type Options = ReturnType<typeof options>;

/** The section (and the plans) of a run: printed, and written where asked. */
function write(o: Options, figures: SizeFigures, run: SizeRunFacts): void {
  const section = renderSize(figures, run);
  console.log(`\n${section}`);
  if (o.output) {
    writeFileSync(
      o.output,
      withSizeSection(existsSync(o.output) ? readFileSync(o.output, 'utf8') : '', section),
    );
    console.log(`written to ${o.output}`);
  }
  if (o.plans && figures.plans) {
    const header = [
      `The statements behind each figure of the size section of BENCHMARKS.md, with ${figures.options.registrations.toLocaleString('en')} registrations over ${figures.options.events.toLocaleString('en')} events loaded; each run again under \`EXPLAIN (ANALYZE, BUFFERS)\` with the values the measured request sends, right after the measuring. Written by \`${run.command}\` at commit ${run.commit}, ${run.finishedAt.toISOString().slice(0, 19)}Z, on ${run.postgres}.`,
    ];
    writeFileSync(o.plans, renderPlans(figures.plans, header));
    console.log(`plans written to ${o.plans}`);
  }
}

/** Builds and starts the compiled service on the database, runs the benchmark, stops the service. */
async function measure(o: Options, databaseUrl: string): Promise<SizeFigures> {
  build();
  const service = await startService(databaseUrl, { WORKERS: 'false' });
  try {
    return await runSize(
      { serviceUrl: service.url, databaseUrl },
      {
        ...o.size,
        concurrency: Number(process.env.BENCH_SIZE_CONCURRENCY ?? 8),
        seconds: settings.seconds,
        runs: settings.runs,
        warmupSeconds: settings.warmupSeconds,
        plans: o.plans !== undefined,
        plansFile: o.plans,
        progress: (line) => console.log(`${stamp()} ${line}`),
      },
    );
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const o = options();
  const startedAt = new Date();
  const loadBefore = loadavg();
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const commit = `${git(['rev-parse', '--short', 'HEAD']) || 'unknown'}${dirty ? ' (with uncommitted changes)' : ''}`;
  const base = process.env.BENCH_SIZE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_size_${Date.now()}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const postgres = await admin(base, async (c) => {
    await c.query(`create database "${name}"`);
    return `PostgreSQL ${(await c.query('show server_version')).rows[0].server_version}`;
  });
  console.log(`${stamp()} database ${name}; building the service`);
  let right = false;
  try {
    const figures = await measure(o, url.toString());
    right = figures.checks.right && figures.series.every((s) => s.runs.every((r) => r.errors === 0));
    write(o, figures, {
      machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
      postgres,
      commit,
      command: command(),
      startedAt,
      finishedAt: new Date(),
      loadBefore,
      loadAfter: loadavg(),
    });
  } finally {
    if (o.keep) console.log(`kept: ${url.toString()}`);
    else await admin(base, (c) => c.query(`drop database if exists "${name}" with (force)`));
  }
  if (!right) {
    console.error('A WRONG ANSWER WAS SEEN (see the section)');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
