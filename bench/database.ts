// What the database under a benchmark was set to, and how long its disk takes to flush: a
// commit waits for one flush of the WAL, so a machine whose disk flushes in 0.1 ms and one that
// takes 5 ms give very different commit rates to the same code. Read once per database for
// BENCHMARKS.md's header (bench/report.ts renders it).
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { latencySummary } from './lib.js';
import type { DatabaseFacts, Flush, PgTestFsync } from './report.js';

/** The settings that decide what a commit waits for, and the cache beside it. */
export const SETTINGS = [
  'fsync',
  'synchronous_commit',
  'full_page_writes',
  'wal_sync_method',
  'shared_buffers',
] as const;

interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The server's version, the SETTINGS and its data directory (undefined when the role may not read it). */
export async function readDatabase(
  db: Queryable,
): Promise<{ version: string; settings: Record<string, string>; dataDirectory?: string }> {
  const version = String((await db.query('show server_version')).rows[0]!.server_version);
  const r = await db.query(
    'select name, current_setting(name) as value from pg_settings where name = any($1)',
    [[...SETTINGS]],
  );
  const values = new Map(r.rows.map((x) => [String(x.name), String(x.value)]));
  const settings = Object.fromEntries(SETTINGS.filter((n) => values.has(n)).map((n) => [n, values.get(n)!]));
  let dataDirectory: string | undefined;
  try {
    dataDirectory = String((await db.query('show data_directory')).rows[0]!.data_directory);
  } catch {
    // needs pg_read_all_settings
  }
  return { version, settings, dataDirectory };
}

/** A writable directory on the same filesystem as `path`: the temporary directory, the working one, or one above `path`. */
function writableBeside(path: string): string | undefined {
  let dev: number;
  try {
    dev = statSync(path).dev;
  } catch {
    return undefined;
  }
  const above: string[] = [];
  for (let d = dirname(path); d !== dirname(d); d = dirname(d)) above.push(d);
  for (const dir of [tmpdir(), process.cwd(), ...above]) {
    try {
      if (statSync(dir).dev !== dev) continue;
      accessSync(dir, constants.W_OK);
      return dir;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * Times rewrites of the first 8 kB block of a 16 MB file written beforehand (a WAL segment's
 * size), each followed by fdatasync: what pg_test_fsync's "one 8kB write" does with fdatasync,
 * for about `seconds`.
 */
export function timeFlushes(
  dir: string,
  seconds: number,
  limit = 5000,
): Omit<Flush, 'directory' | 'pgTestFsync'> {
  const work = mkdtempSync(join(dir, 'bench-flush-'));
  const fd = openSync(join(work, 'block'), 'w');
  try {
    const segment = Buffer.alloc(16 * 1024 * 1024);
    writeSync(fd, segment, 0, segment.length, 0);
    fdatasyncSync(fd);
    const block = Buffer.alloc(8192, 0x5a);
    const latencies: number[] = [];
    const started = performance.now();
    while (performance.now() - started < seconds * 1000 && latencies.length < limit) {
      const t = performance.now();
      writeSync(fd, block, 0, block.length, 0);
      fdatasyncSync(fd);
      latencies.push(performance.now() - t);
    }
    const elapsed = (performance.now() - started) / 1000;
    const s = latencySummary(latencies);
    return {
      writes: latencies.length,
      perSecond: latencies.length / elapsed,
      medianMs: s.p50,
      p99Ms: s.p99,
      maxMs: s.max,
    };
  } finally {
    closeSync(fd);
    rmSync(work, { recursive: true, force: true });
  }
}

/** PostgreSQL's own pg_test_fsync: BENCH_PG_TEST_FSYNC, else the newest under /usr/lib/postgresql (Debian's packages). */
export function findPgTestFsync(): string | undefined {
  if (process.env.BENCH_PG_TEST_FSYNC) return process.env.BENCH_PG_TEST_FSYNC;
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = `/usr/lib/postgresql/${v}/bin/pg_test_fsync`;
      try {
        accessSync(bin, constants.X_OK);
        return bin;
      } catch {
        // not in this version
      }
    }
  } catch {
    // no Debian layout
  }
  return undefined;
}

/** The "Compare file sync methods using one 8kB write" lines of pg_test_fsync's output; "n/a" methods are left out. */
export function parsePgTestFsync(output: string): { method: string; perSecond: number; usPerOp: number }[] {
  const start = output.indexOf('using one 8kB write');
  if (start < 0) return [];
  const out: { method: string; perSecond: number; usPerOp: number }[] = [];
  const lines = output.slice(start).split('\n').slice(1);
  for (const line of lines) {
    if (/using two 8kB writes|Compare/.test(line)) break;
    const m = /^\s+(\S+)\s+([\d.]+) ops\/sec\s+(\d+) usecs\/op/.exec(line);
    if (m) out.push({ method: m[1]!, perSecond: Number(m[2]), usPerOp: Number(m[3]) });
  }
  return out;
}

/** pg_test_fsync's results per filesystem: two databases on one filesystem run it once. */
const pgTestFsyncByDevice = new Map<number, PgTestFsync>();

function runPgTestFsync(dir: string, seconds: number): PgTestFsync {
  if (seconds <= 0) return { skipped: 'not run (BENCH_PG_TEST_FSYNC_SECONDS=0)' };
  const dev = statSync(dir).dev;
  const known = pgTestFsyncByDevice.get(dev);
  if (known) return known;
  const bin = findPgTestFsync();
  if (!bin) return { skipped: 'not run: pg_test_fsync not found (set BENCH_PG_TEST_FSYNC)' };
  const work = mkdtempSync(join(dir, 'bench-pg-test-fsync-'));
  try {
    const r = spawnSync(bin, ['-f', join(work, 'test'), '-s', String(seconds)], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    const methods = parsePgTestFsync(r.stdout ?? '');
    const result: PgTestFsync =
      methods.length > 0
        ? { command: `pg_test_fsync -s ${seconds}`, methods }
        : {
            skipped: `pg_test_fsync gave no figures (exit ${r.status}${r.error ? `, ${r.error.message}` : ''})`,
          };
    pgTestFsyncByDevice.set(dev, result);
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** How fast the data directory's filesystem flushes; when the data directory is not on this machine, why not. */
export function measureFlush(dataDirectory: string | undefined): { flush?: Flush; flushMissing?: string } {
  if (!dataDirectory) return { flushMissing: 'not measured: the data directory could not be read' };
  const dir = writableBeside(dataDirectory);
  if (!dir)
    return {
      flushMissing: `not measured: no writable directory on the filesystem of ${dataDirectory} on this machine`,
    };
  const seconds = Number(process.env.BENCH_FLUSH_SECONDS ?? 1);
  const pgTestFsync = runPgTestFsync(dir, Number(process.env.BENCH_PG_TEST_FSYNC_SECONDS ?? 1));
  return { flush: { directory: dir, ...timeFlushes(dir, seconds), pgTestFsync } };
}

/** Everything the header says about one database. */
export async function databaseFacts(name: string, db: Queryable): Promise<DatabaseFacts> {
  const { version, settings, dataDirectory } = await readDatabase(db);
  return { name, version, settings, dataDirectory, ...measureFlush(dataDirectory) };
}
