// The embedded server must flush every commit's WAL to disk before the commit is answered:
// test/durability/kill.test.ts kills processes, and a killed process loses nothing the page cache
// holds, so it cannot see a missing flush. What it cannot see is read back here from the
// running server: `fsync`, `synchronous_commit` and `full_page_writes` on. (Whether the disk
// honours a flush, and what a power loss does, no test here shows.)
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { databaseServerEnv } from '../../src/db/embedded-process.js';
import { START_ENV, startProcess, type ServiceProcess } from '../helpers/process.js';
import { startServer, storage, type TestServer } from '../helpers/server.js';

const FLUSHING = ['fsync', 'synchronous_commit', 'full_page_writes'] as const;

describe('the embedded server flushes every commit to disk', {
  skip:
    storage === 'postgres'
      ? 'about the embedded server (the PostgreSQL pass uses a server the service does not run)'
      : false,
}, () => {
  let dir: string;
  let service: ServiceProcess;
  let server: TestServer;
  before(async () => {
    // As `npm start` starts it: the service's main on an empty DATA_DIR and no DATABASE_URL,
    // so the first start creates the cluster and runs the embedded server.
    dir = mkdtempSync(join(tmpdir(), 'svc-settings-'));
    service = await startProcess({ ...START_ENV, DATA_DIR: dir, DATABASE_URL: '', EMAIL_DNS_CHECK: 'false' });
    server = await startServer();
  });
  after(async () => {
    await service?.stop();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows fsync, synchronous_commit and full_page_writes on, read over the socket of the server a started service runs', async () => {
    const client = new pg.Client({ connectionString: embeddedDatabaseUrl(dir) });
    await client.connect();
    try {
      for (const name of FLUSHING) {
        const { rows } = await client.query<Record<string, string>>(`show ${name}`);
        assert.equal(rows[0]?.[name], 'on', `${name} of the running embedded server`);
      }
      // The server read is the one in this DATA_DIR.
      const { rows } = await client.query<{ data_directory: string }>('show data_directory');
      assert.equal(rows[0]?.data_directory, join(dir, 'db'));
    } finally {
      await client.end();
    }
  });

  it("runs with npm start's allocator setting, which the database server it starts does not inherit", () => {
    // PostgreSQL writes its process titles over its environment's memory, so /proc cannot
    // show the server's environment: what the service gives it is checked instead.
    const environ = readFileSync(`/proc/${service.child.pid!}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(START_ENV)) {
      assert.ok(environ.includes(`${name}=${value}`), `the service runs with ${name}`);
      assert.equal(databaseServerEnv({ [name]: value, PATH: '/bin' })[name], undefined);
    }
    assert.equal(databaseServerEnv({ PATH: '/bin' }).PATH, '/bin');
  });

  it("shows them on through the service's own connections too, where a session could have turned them off", async () => {
    const { rows } = await sql<{ name: string; setting: string }>`
      select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes')`.execute(
      server.deps.db,
    );
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.name, r.setting])), {
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
    });
  });
});
