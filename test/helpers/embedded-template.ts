// `node --import tsx test/helpers/embedded-template.ts DIR`: creates an embedded cluster in DIR/db
// once per test run and runs the service's migrations in it. Test servers start from a copy of it
// instead of running initdb and every migration each (seconds apiece on a busy machine); each
// still runs its own embedded server, and its start still runs the migrator, which finds nothing
// to do. Tests of the migrations themselves migrate down and up again on their own database.
import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { initialiseEmbedded, startEmbedded } from '../../src/db/embedded.js';
import { migrationProvider } from '../../src/db/migrations/index.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: embedded-template.ts DIR');
await initialiseEmbedded(dir);
const server = await startEmbedded({ dataDir: dir });
const db = new Kysely({
  dialect: new PostgresDialect({
    pool: new pg.Pool({
      host: server.socketDir,
      port: server.port,
      user: server.user,
      database: server.database,
      max: 1,
    }),
  }),
});
try {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) throw error;
} finally {
  await db.destroy();
  // A clean shutdown: the copies start without crash recovery.
  await server.stop();
}
