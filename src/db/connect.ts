import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './database.js';
import { startEmbedded, type EmbeddedOptions, type EmbeddedServer } from './embedded.js';
import { migrationProvider } from './migrations/index.js';

/** `embedded`: the PostgreSQL server the service runs itself in $DATA_DIR/db; `postgres`: one at DATABASE_URL. */
export type Storage = 'embedded' | 'postgres';

export interface ConnectOptions {
  /** Where the embedded server's log lines go, and who hears if it exits while the service runs. */
  embeddedLogging?: Pick<EmbeddedOptions, 'log' | 'onUnexpectedExit'>;
  /** An embedded server already being started (server.ts starts it while the modules load); used instead of starting one. */
  embedded?: Promise<EmbeddedServer>;
}

export interface Db {
  readonly db: Kysely<Database>;
  readonly storage: Storage;
  /** The connection pool under `db`, for its use figures (/metrics). */
  readonly pool: PoolUse;
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
  if (config.databaseUrl) {
    const connection = { connectionString: config.databaseUrl };
    const pool = createPool(connection, notices, backends, config.databasePoolSize);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db);
    return { db, storage: 'postgres', pool, connection, onNotice, ownBackend, close: () => db.destroy() };
  }
  const server = await (options.embedded ??
    startEmbedded({ dataDir: config.dataDir, ...options.embeddedLogging }));
  const connection = {
    host: server.socketDir,
    port: server.port,
    user: server.user,
    database: server.database,
  };
  const pool = createPool(connection, notices, backends, config.databasePoolSize);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
    connection,
    onNotice,
    ownBackend,
    async close() {
      await db.destroy();
      await server.stop();
    },
  };
}

function createPool(
  connection: pg.PoolConfig,
  notices: readonly ((message: string) => void)[],
  backends: Set<number>,
  max: number,
): pg.Pool {
  const pool = new pg.Pool({ ...connection, max });
  // An idle client's error (server restart) must not crash the process.
  pool.on('error', () => {});
  pool.on('remove', (client) => backends.delete((client as unknown as { processID: number }).processID));
  pool.on('connect', (client) => {
    // A checked-out client's error (the server restarted or failed over, its backend was
    // terminated, the network cut it) fails the statement under way, which answers 503; without
    // a listener of its own it would also be thrown from the socket and end the process. The
    // pool drops the client when it is released.
    client.on('error', () => {});
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
