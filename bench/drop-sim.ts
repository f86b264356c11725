// `npm run drop-sim [-- --arrivals N] [--seed S] [--capacity C] [--admit-per-minute R]
// [--session-minutes M] [--output FILE | --no-write]`: a million arrivals (by default) through
// the waiting room's queue in Redis and the admitted through the hosted page
// (bench/drop-sim-run.ts), the figures printed and written into BENCHMARKS.md's drop-sim
// section (bench/drop-sim-report.ts). Redis: DROP_SIM_REDIS_URL, else REDIS_URL, else
// redis://127.0.0.1:6379; only the event's own keys are written, and removed at the end. The
// database: the embedded PostgreSQL in a temporary DATA_DIR (TEST_DB=postgres with
// TEST_DATABASE_URL for a PostgreSQL server).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULTS, runDropSim } from './drop-sim-run.js';
import { renderDropSim, withSection } from './drop-sim-report.js';

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arrivals: { type: 'string' },
      seed: { type: 'string' },
      capacity: { type: 'string' },
      'admit-per-minute': { type: 'string' },
      'session-minutes': { type: 'string' },
      output: { type: 'string' },
      'no-write': { type: 'boolean' },
    },
  });
  const int = (v: string | undefined, fallback: number, name: string) => {
    if (v === undefined) return fallback;
    const n = Number(v.replaceAll('_', '').replaceAll(',', ''));
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number above 0`);
    return n;
  };
  const options = {
    ...DEFAULTS,
    arrivals: int(values.arrivals, DEFAULTS.arrivals, 'arrivals'),
    seed: int(values.seed, DEFAULTS.seed, 'seed'),
    capacity: int(values.capacity, DEFAULTS.capacity, 'capacity'),
    admitPerMinute: int(values['admit-per-minute'], DEFAULTS.admitPerMinute, 'admit-per-minute'),
    sessionMinutes: int(values['session-minutes'], DEFAULTS.sessionMinutes, 'session-minutes'),
    redisUrl: process.env.DROP_SIM_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    progress: (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`),
  };
  const startedAt = new Date();
  const loadBefore = loadavg();
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const commit = `${git(['rev-parse', '--short', 'HEAD']) || 'unknown'}${dirty ? ' (with uncommitted changes)' : ''}`;
  const figures = await runDropSim(options);
  const section = renderDropSim(figures, {
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}`,
    commit,
    command: `npm run drop-sim -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, ''),
    startedAt,
    loadBefore,
    loadAfter: loadavg(),
  });
  console.log(`\n${section}`);
  if (!values['no-write']) {
    const file = values.output ?? 'BENCHMARKS.md';
    writeFileSync(file, withSection(existsSync(file) ? readFileSync(file, 'utf8') : '', section));
    console.log(`written to ${file}`);
  }
  if (figures.oversold > 0 || figures.botPlaces > 0 || figures.laterInversions > 0) {
    console.error('A CORRECTNESS CHECK FAILED: oversold, bots with a place, or later arrivals out of order');
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
