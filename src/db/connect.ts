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

export async function connectDatabase(config: Config): Promise<Db> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 20 });
    // An idle client's error (server restart) must not crash the process.
    pool.on('error', () => {});
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
