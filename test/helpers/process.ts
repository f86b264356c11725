// Starts the real service as a separate process (`node --import tsx src/server.ts`)
// on a free loopback port, for tests that need several processes or a hard kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { RAISED_LIMITS } from './limits.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The environment `npm start` and the image (Dockerfile) start the service with, beside its own
 * settings: glibc's malloc with its mmap threshold fixed at its default of 128 KiB. Left to
 * adjust itself, glibc raises the threshold to the size of each large block freed (up to
 * 32 MiB), so once a door roster's columns of a few MB are dropped or replaced, later blocks of
 * that size come from the heap instead of their own mappings, and what is freed there stays
 * resident. Fixed, a large block is mapped for itself and given back when freed
 * (docs/operations/production.md). test/deploy/container.test.ts checks the three agree.
 */
export const START_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The TypeScript loader the test run itself uses (test/helpers/ts-hooks.mjs), for the service processes tests start. */
const TS_HOOKS = new URL('./ts-hooks.mjs', import.meta.url).href;

// Starting from the TypeScript sources is slow on a shared 2-core machine when it is busy: 30 s
// was too short a wait to tell a service that cannot start from a slow machine.
export async function startProcess(
  env: Record<string, string>,
  timeoutMs = 90_000,
  nodeArgs: string[] = [],
  entry: string[] = ['--import', TS_HOOKS, 'src/server.ts'],
): Promise<ServiceProcess> {
  const port = await freePort();
  let errors = '';
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    // Pools of 10: two or three processes beside the test's own server, and another test file
    // running at the same time, stay under one PostgreSQL server's 100 connections.
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: '10',
      ...RAISED_LIMITS,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => {
    errors += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${errors}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not become ready: ${errors}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stderr: () => errors,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
