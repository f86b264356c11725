// Starts the real service in this process on a free loopback port, on the storage
// the run asks for: the embedded PostgreSQL server in a fresh temporary DATA_DIR by
// default, PostgreSQL at TEST_DATABASE_URL when TEST_DB=postgres.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { listenWithQueues } from '../../src/http/accept-queues.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { DnsResolver } from '../../src/modules/mail/email-check.js';
import { RAISED_LIMITS } from './limits.js';
import pg from 'pg';
import type { Logger } from 'pino';

export const storage: 'embedded' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'embedded';

export interface TestServer {
  url: string;
  app: App;
  /** How many sockets accept connections on the port (ACCEPT_QUEUES; 1 where SO_REUSEPORT is missing). */
  acceptQueues: number;
  deps: Deps;
  clock: ManualClock;
  dataDir: string;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  /** Reuse a DATA_DIR (restart tests on the embedded database). */
  dataDir?: string;
  /**
   * On PostgreSQL, run on a database of this server's own. Test files share one
   * database, and any server's worker may run any queued job; a test that needs its
   * jobs run by a server with its own settings (SMTP, private webhook URLs) isolates.
   * So does every test that joins a waiting room: each test server has a clock of its own,
   * and one moved on by days would find another's one-time codes expired (its worker drops
   * their mail, and its next join prunes their verifications), which instances of one
   * service, sharing a clock, never do.
   */
  isolatedDatabase?: boolean;
  /**
   * Run on another test server's database, as a second instance would: on the embedded pass
   * through that server's Unix socket (its embedded server must outlive this one), on
   * PostgreSQL at its DATABASE_URL.
   */
  shareDatabaseWith?: TestServer;
  /** Log here instead of the configured logger (tests that read the log lines). */
  logger?: Logger;
  /** The resolver the email check and its canary ask (with EMAIL_DNS_CHECK=true). */
  resolver?: DnsResolver;
}

const running = new Map<string, TestServer>();
/** The in-process server listening at `url`, if this process started it. */
export function serverAt(url: string): TestServer | undefined {
  return running.get(url);
}

export function testEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...RAISED_LIMITS,
    EMAIL_DNS_CHECK: 'false',
    WORKERS: 'false',
    // The waiting room's proof of work, cheap for the tests' many joins (its default is 100000).
    WAITING_ROOM_POW_MAX_NUMBER: '50',
  };
  if (storage === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    env.DATABASE_URL = url;
    // Test files share this one database as instances of one service do, and so share its
    // SECRETS_KEY as those instances must: a job one server enqueued (a waiting room's sealed
    // code, say) may be run by another's workers.
    env.SECRETS_KEY = 'test-servers-on-one-database-share-this-key-0123';
  }
  return { ...env, ...extra };
}

/** A fresh database on the PostgreSQL server at TEST_DATABASE_URL, for a test whose workers must see no other file's jobs (migrated already when the run made a template). */
export async function isolatedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `${base.pathname.slice(1)}_iso_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  // A whole run (scripts/run-tests.mjs) migrates a template once; a file run alone starts empty.
  const template = process.env.TEST_POSTGRES_TEMPLATE;
  await run(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const template = process.env.TEST_EMBEDDED_TEMPLATE;
  if (storage === 'embedded' && ownDir && template && !options.shareDatabaseWith) {
    // A copy of the run's empty cluster (owner and modes kept): the server starts on it
    // as on any initialised DATA_DIR, without its own initdb.
    execFileSync('cp', ['-a', template, join(dataDir, 'db')]);
  }
  const own = storage === 'postgres' && options.isolatedDatabase ? await isolatedDatabase() : undefined;
  const shared = options.shareDatabaseWith;
  const databaseUrl =
    own?.url ??
    (shared ? (shared.deps.config.databaseUrl ?? embeddedDatabaseUrl(shared.dataDir)) : undefined);
  const config = loadConfig(
    testEnv(dataDir, { ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...options.env }),
  );
  const clock = options.clock ?? new ManualClock(new Date());
  const deps = await createDeps(config, {
    clock,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  // As server.ts does at start; later turns are the test's (clock.advance, then emailCanary.checkIfDue()).
  await deps.emailCanary.checkIfDue();
  const app = await buildApp(deps);
  // As `npm start` listens: ACCEPT_QUEUES sockets on the port (connection caps, timeouts and
  // all are then tested as production has them).
  const listening = await listenWithQueues(app, { port: 0, host: '127.0.0.1' }, config.http.acceptQueues);
  if (config.workers) deps.jobs.start();
  const url = `http://127.0.0.1:${listening.port}`;
  const server: TestServer = {
    url,
    app,
    acceptQueues: listening.queues,
    deps,
    clock,
    dataDir,
    async close() {
      running.delete(url);
      await Promise.all([listening.close(), app.close()]);
      await deps.close();
      await own?.drop();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.set(url, server);
  return server;
}

/**
 * Runs due jobs until `done()` holds. On PostgreSQL the jobs table is shared with
 * other test files, so a batch may hold other work; keep going, a bounded number of times.
 */
export async function drainJobs(
  server: TestServer,
  done: () => Promise<boolean>,
  rounds = 100,
): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    if (await done()) return;
    await server.deps.jobs.runOnce();
  }
  if (!(await done())) throw new Error('jobs did not reach the expected state');
}
