import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';

export type Storage = 'pglite' | 'postgres';

export interface Db {
  readonly db: Kysely<Database>;
  readonly storage: Storage;
  close(): Promise<void>;
}

// int8 (counts, sums) as numbers on both drivers; PGlite already does this.
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
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown) => {
    if (typeof text === 'string') {
      const name = statementName(text);
      if (name !== undefined) return query({ name, text, values });
    }
    return values === undefined ? query(text) : query(text, values);
  };
}

export async function connectDatabase(config: Config): Promise<Db> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 20 });
    // An idle client's error (server restart) must not crash the process.
    pool.on('error', () => {});
    pool.on('connect', prepareStatements);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db);
    return { db, storage: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(join(config.dataDir, 'db'));
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  await migrate(db);
  return { db, storage: 'pglite', close: () => db.destroy() };
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
