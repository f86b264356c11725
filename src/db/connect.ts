import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.js';
import { ConnectGate } from './connect-gate.js';
import type { Database } from './database.js';
import { startEmbedded, type EmbeddedOptions, type EmbeddedServer } from './embedded.js';
import { migrationProvider } from './migrations/index.js';

/** `embedded`: the PostgreSQL server the service runs itself in $DATA_DIR/db; `postgres`: one at DATABASE_URL. */
export type Storage = 'embedded' | 'postgres';

export interface ConnectOptions {
  /** Where the embedded server's log lines go, and who hears if it exits while the service runs. */
  embeddedLogging?: Pick<EmbeddedOptions, 'log' | 'onUnexpectedExit' | 'onRestart'>;
  /** An embedded server already being started (server.ts starts it while the modules load); used instead of starting one. */
  embedded?: Promise<EmbeddedServer>;
}

export interface Db {
  readonly db: Kysely<Database>;
  readonly storage: Storage;
  /** The connection pool under `db`, for its use figures (/metrics). */
  readonly pool: PoolUse;
  /** How often the database went away under the service (/metrics). */
  readonly outages: Outages;
  /** How to open a connection of one's own outside the pool (the door's LISTEN). */
  readonly connection: pg.ClientConfig;
  /** Hears the NOTICEs PostgreSQL sends the pool's sessions (the door's `door_changed`). */
  onNotice(handler: (message: string) => void): void;
  /** Whether a server process id is one of this pool's sessions (a notification this instance sent itself). */
  ownBackend(pid: number): boolean;
  close(): Promise<void>;
}

/** How many connections the pool holds, how many are idle, how many callers wait for one. */
export interface PoolUse {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** Counts since start: the database going away, and the service getting it back. */
export interface Outages {
  /** Established pool connections that failed (the server restarted, the backend was terminated, the network cut it). */
  readonly connectionsLost: number;
  /** Attempts to open a pool connection that failed. */
  readonly connectsFailed: number;
  /** Checkouts refused at once during the pool's back-off after a failed connect (connect-gate.ts). */
  readonly connectsBackedOff: number;
  /** Restarts of the embedded server after it exited unexpectedly (0 on PostgreSQL). */
  readonly embeddedRestarts: number;
}

interface OutageCounts {
  connectionsLost: number;
  connectsFailed: number;
  connectsBackedOff: number;
}

// int8 (counts, sums) as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * Every statement runs as a named prepared statement (named by a hash of its text),
 * so PostgreSQL plans it once per connection instead of on every call: planning was
 * most of the cost of the door's queries. Kysely compiles the same text for the same
 * query shape, so the set of names stays small; past MAX_PREPARED distinct texts the
 * rest run unnamed. (Behind a transaction-pooling proxy such as PgBouncer in
 * transaction mode, prepared statements need its prepared-statement support.)
 */
const MAX_PREPARED = 2000;

/** How long opening a connection may take before it counts as failed. */
const CONNECT_TIMEOUT_MS = 10_000;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = 'k' + createHash('sha1').update(text).digest('hex').slice(0, 24);
    statementNames.set(text, name);
  }
  return name;
}

function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    text: unknown,
    values?: unknown,
  ) => {
    if (typeof text === 'string') {
      const name = statementName(text);
      if (name !== undefined) return query({ name, text, values });
    }
    return values === undefined ? query(text) : query(text, values);
  };
}

export async function connectDatabase(config: Config, options: ConnectOptions = {}): Promise<Db> {
  const notices: ((message: string) => void)[] = [];
  const onNotice = (handler: (message: string) => void) => void notices.push(handler);
  const backends = new Set<number>();
  const ownBackend = (pid: number) => backends.has(pid);
  const counts: OutageCounts = { connectionsLost: 0, connectsFailed: 0, connectsBackedOff: 0 };
  const hooks = { notices, backends, counts };
  if (config.databaseUrl) {
    const connection = { connectionString: config.databaseUrl };
    const pool = createPool(connection, hooks, config.databasePoolSize);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db);
    const outages = counted(counts, () => 0);
    return {
      db,
      storage: 'postgres',
      pool,
      outages,
      connection,
      onNotice,
      ownBackend,
      close: () => db.destroy(),
    };
  }
  const server = await (options.embedded ??
    startEmbedded({ dataDir: config.dataDir, ...options.embeddedLogging }));
  const connection = {
    host: server.socketDir,
    port: server.port,
    user: server.user,
    database: server.database,
  };
  const pool = createPool(connection, hooks, config.databasePoolSize);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const outages = counted(counts, () => server.restarts);
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    await server.stop();
    throw err;
  }
  return {
    db,
    storage: 'embedded',
    pool,
    outages,
    connection,
    onNotice,
    ownBackend,
    async close() {
      await db.destroy();
      await server.stop();
    },
  };
}

/** Read-only views of the counts, read when /metrics is scraped. */
function counted(counts: OutageCounts, restarts: () => number): Outages {
  return {
    get embeddedRestarts() {
      return restarts();
    },
    get connectionsLost() {
      return counts.connectionsLost;
    },
    get connectsFailed() {
      return counts.connectsFailed;
    },
    get connectsBackedOff() {
      return counts.connectsBackedOff;
    },
  };
}

type Checkout = (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void;

/**
 * pg's pool with the back-off of connect-gate.ts: a checkout that would open a new connection
 * fails at once while the gate is closed after a failed connect. A checkout that can take an
 * idle connection, or wait for a busy one, does so as before.
 */
class GatedPool extends pg.Pool {
  readonly #gate = new ConnectGate();
  readonly #counts: OutageCounts;

  constructor(config: pg.PoolConfig, counts: OutageCounts) {
    super(config);
    this.#counts = counts;
    this.on('connect', () => this.#gate.succeeded());
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Checkout): void;
  override connect(callback?: Checkout): Promise<pg.PoolClient> | undefined {
    const needsNew = this.idleCount === 0 && this.totalCount < (this.options.max ?? 10);
    if (needsNew && !this.#gate.open) {
      this.#counts.connectsBackedOff++;
      const err = this.#gate.refusal();
      if (callback) return void process.nextTick(() => callback(err, undefined, () => {}));
      return Promise.reject(err);
    }
    const failed = () => {
      this.#counts.connectsFailed++;
      this.#gate.failed();
    };
    if (callback) {
      super.connect(((err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => {
        if (err) failed();
        callback(err, client, done);
      }) as Parameters<pg.Pool['connect']>[0]);
      return undefined;
    }
    return super.connect().catch((err: unknown) => {
      failed();
      throw err;
    });
  }
}

function createPool(
  connection: pg.PoolConfig,
  hooks: { notices: readonly ((message: string) => void)[]; backends: Set<number>; counts: OutageCounts },
  max: number,
): pg.Pool {
  const { notices, backends, counts } = hooks;
  // A connect that gets no answer (a server or network that drops packets) fails after this
  // long instead of waiting for the operating system's TCP timeout. Set on the client only:
  // on the pool the same setting would also end a checkout's wait for a busy connection.
  const Client = class extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }
  };
  const pool = new GatedPool({ ...connection, max, Client }, counts);
  // An idle client's error (server restart) must not crash the process.
  pool.on('error', () => {});
  pool.on('remove', (client) => backends.delete((client as unknown as { processID: number }).processID));
  pool.on('connect', (client) => {
    // A checked-out client's error (the server restarted or failed over, its backend was
    // terminated, the network cut it) fails the statement under way, which answers 503; without
    // a listener of its own it would also be thrown from the socket and end the process. The
    // pool drops the client when it is released.
    client.on('error', () => void counts.connectionsLost++);
    prepareStatements(client);
    backends.add((client as unknown as { processID: number }).processID);
    // Heard before the statement's answer, so before its caller goes on.
    client.on('notice', (n) => {
      for (const handler of notices) handler(n.message ?? '');
    });
  });
  return pool;
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
