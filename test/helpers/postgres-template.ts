// `node --import tsx test/helpers/postgres-template.ts URL NAME`: creates database NAME on the
// PostgreSQL server at URL and runs the service's migrations in it, once per test run. A test
// server that asks for a database of its own (`isolatedDatabase`) gets a copy of it
// (`create database … template NAME`) instead of running every migration itself.
import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from '../../src/db/migrations/index.js';

const [base, name] = process.argv.slice(2);
if (!base || !name) throw new Error('usage: postgres-template.ts URL NAME');
const admin = new URL(base);
admin.pathname = '/postgres';
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
try {
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.query(`create database "${name}"`);
} finally {
  await client.end();
}
const url = new URL(base);
url.pathname = `/${name}`;
const db = new Kysely({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }),
});
try {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
} finally {
  // No connection may stay open on a template while it is copied.
  await db.destroy();
}
