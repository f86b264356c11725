// Throwaway PostgreSQL clusters for the backup and restore check: the binaries (with
// pg_basebackup), initdb into a directory of the check's own, a server on a free loopback port,
// a base backup. The embedded database's package ships no pg_basebackup, so the tools come from a
// PostgreSQL installation; as root the servers run as the embedded database's user (`nobody`).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { WATCHDOG } from '../../src/db/embedded.js';
import { collect, type RunAs, runAs, sleep, spawnAs } from '../../src/db/embedded-process.js';
import { freePort } from './process.js';

export interface Toolset {
  bindir: string;
  /** The major version, from `postgres --version`. */
  major: number;
}

const TOOLS = ['initdb', 'postgres', 'pg_basebackup'];

function candidates(): string[] {
  const out: string[] = [];
  if (process.env.PG_BINDIR) out.push(process.env.PG_BINDIR);
  try {
    out.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on the PATH
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian).filter((v) => /^\d+$/.test(v));
    for (const v of majors.sort((a, b) => Number(b) - Number(a))) out.push(join(debian, v, 'bin'));
  }
  out.push('/usr/local/pgsql/bin');
  return out;
}

/** The first directory holding initdb, postgres and pg_basebackup (PG_BINDIR first), or undefined. */
export function findToolset(): Toolset | undefined {
  for (const bindir of candidates()) {
    if (!TOOLS.every((t) => existsSync(join(bindir, t)))) continue;
    const version = execFileSync(join(bindir, 'postgres'), ['--version'], { encoding: 'utf8' });
    const major = Number(/(\d+)/.exec(version)?.[1]);
    if (Number.isInteger(major)) return { bindir, major };
  }
  return undefined;
}

/** A directory the servers' user owns (0700), made by the check's user. */
export function serverDir(path: string, as: RunAs | undefined): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (as) chownSync(path, as.uid, as.gid);
  chmodSync(path, 0o700);
  return path;
}

/** Writes a file the servers' user owns. */
export function serverFile(path: string, text: string, as: RunAs | undefined): void {
  writeFileSync(path, text, { mode: 0o600 });
  if (as) chownSync(path, as.uid, as.gid);
}

/** Runs one of the tools as the servers' user; throws with its last lines when it fails. */
export async function runTool(tools: Toolset, tool: string, args: string[]): Promise<void> {
  const child = spawnAs(runAs(), join(tools.bindir, tool), args);
  child.stdin?.end();
  const out = collect(child);
  const code = await out.exit;
  if (code !== 0)
    throw new Error(`${tool} exited ${code}: ${out.text().trim().split('\n').slice(-5).join(' ')}`);
}

export async function initdb(tools: Toolset, dataDir: string): Promise<void> {
  await runTool(tools, 'initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
  ]);
}

export interface RunningCluster {
  port: number;
  /** For the service's DATABASE_URL and the check's own queries. */
  url: string;
  query<T extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** Fast shutdown; waits for the server to exit. */
  stop(): Promise<void>;
  /** The server's log so far. */
  log(): string;
}

/**
 * Starts `postgres -D dataDir` on a free loopback port with `settings` on its command line,
 * under the embedded database's watchdog (the server stops when this process ends, even killed),
 * and waits until it accepts connections and, when `ready` is given, until that query answers true.
 */
export async function startCluster(
  tools: Toolset,
  dataDir: string,
  settings: Record<string, string>,
  ready?: string,
): Promise<RunningCluster> {
  const port = await freePort();
  const all = { listen_addresses: '127.0.0.1', port: String(port), unix_socket_directories: '', ...settings };
  const args = Object.entries(all).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const child = spawnAs(runAs(), '/bin/sh', [
    '-c',
    WATCHDOG,
    join(tools.bindir, 'postgres'),
    '-D',
    dataDir,
    ...args,
  ]);
  const out = collect(child);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const query = async <T extends pg.QueryResultRow>(text: string, params?: unknown[]) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  };
  const stop = async () => {
    child.stdin?.end();
    await out.exit.catch(() => null);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`postgres exited ${child.exitCode}: ${lastLines(out.text())}`);
    const answer = await query(ready ?? 'select true as ok').catch(() => undefined);
    if (answer && Object.values(answer[0] ?? {})[0] === true) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`postgres was not ready within 60 s: ${lastLines(out.text())}`);
    }
    await sleep(50);
  }
  return { port, url, query, stop, log: () => out.text() };
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-8).join('\n');
}

/** Waits until the archiver has copied the WAL file `walFile` (or a later one). */
export async function waitArchived(cluster: RunningCluster, walFile: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const [row] = await cluster.query<{ last: string | null; failed: string | null }>(
      'select last_archived_wal as last, last_failed_wal as failed from pg_stat_archiver',
    );
    if (row?.last && row.last.slice(0, 24) >= walFile) return;
    if (Date.now() > deadline)
      throw new Error(
        `WAL file ${walFile} was not archived within ${ms / 1000} s (last archived ${row?.last}, last failed ${row?.failed})`,
      );
    await sleep(50);
  }
}

export { runAs };
