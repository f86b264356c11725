// The embedded server's processes: the user it runs as (never root), spawning its
// programs, and finding and stopping a server that a killed service left running.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { platform } from 'node:os';
import { join, resolve } from 'node:path';

/** PostgreSQL refuses to run as root; a root service runs the database as this user. */
export const ROOT_FALLBACK_USER = 'nobody';

export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

export function runAs(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', ROOT_FALLBACK_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', ROOT_FALLBACK_USER], { encoding: 'utf8' }).trim());
    if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid === 0)
      throw new Error('not an unprivileged user');
    return { uid, gid, name: ROOT_FALLBACK_USER };
  } catch {
    throw new Error(
      `the service runs as root and PostgreSQL refuses to; the embedded database would run as the user "${ROOT_FALLBACK_USER}", which this system lacks. Run the service as an ordinary user, or set DATABASE_URL`,
    );
  }
}

export function rootHint(as: RunAs | undefined): string {
  return as
    ? ` (the service runs as root, so the embedded database runs as "${as.name}", which must be able to reach DATA_DIR and the service's node_modules; run the service as an ordinary user, or set DATABASE_URL)`
    : '';
}

/** The service's environment less its allocator setting (docs/operations/production.md), which is for Node.js: PostgreSQL keeps glibc's own. */
export function databaseServerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { MALLOC_MMAP_THRESHOLD_: _service, ...rest } = env;
  return rest;
}

export function spawnAs(
  as: RunAs | undefined,
  file: string,
  args: string[],
  options: { detached?: boolean } = {},
): ChildProcess {
  return spawn(file, args, {
    stdio: ['pipe', 'ignore', 'pipe'],
    detached: options.detached ?? false,
    env: { ...databaseServerEnv(process.env), LC_ALL: 'C', LANG: 'C', PGTZ: 'UTC' },
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
}

export function collect(child: ChildProcess): { text(): string; exit: Promise<number | null> } {
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
export async function clearStaleServer(dbDir: string): Promise<void> {
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
    if (owner === undefined)
      stop = true; // no watchdog: an orphan
    else if (owner !== 1 && commandOf(owner) === commandOf(process.pid)) {
      throw new Error(
        `the embedded database in ${dbDir} is in use by another process (${owner}): is another instance of the service running on this DATA_DIR?`,
      );
    }
  }
  if (stop) process.kill(pid, 'SIGINT'); // fast shutdown
  if (await waitForExit(pid, 15_000)) return;
  if (ours === undefined)
    throw new Error(
      `the embedded database in ${dbDir} is still running (postmaster ${pid}): is another instance of the service running on this DATA_DIR?`,
    );
  process.kill(pid, 'SIGQUIT'); // immediate shutdown: crash recovery at the next start; nothing acknowledged is lost
  if (!(await waitForExit(pid, 5_000)))
    throw new Error(`the embedded database left running in ${dbDir} (postmaster ${pid}) does not stop`);
}
