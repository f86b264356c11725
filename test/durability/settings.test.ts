// Durability is claimed for a machine that loses power, not only for a killed process: that
// holds only while the embedded server flushes its WAL to disk before a commit is answered.
// The kill tests cannot see a missing flush (the page cache outlives a process), so the running
// server's settings are read back here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { startServer, storage, type TestServer } from '../helpers/server.js';

describe('the embedded server flushes every commit to disk', { skip: storage === 'postgres' ? 'about the embedded server (the PostgreSQL pass uses a server the service does not run)' : false }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.close());

  it('runs with fsync, synchronous_commit and full_page_writes on', async () => {
    const { rows } = await sql<{ name: string; setting: string }>`
      select name, setting from pg_settings
      where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method') order by name`.execute(server.deps.db);
    const got = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
    assert.equal(got.fsync, 'on');
    assert.equal(got.synchronous_commit, 'on');
    assert.equal(got.full_page_writes, 'on');
    assert.ok(got.wal_sync_method && got.wal_sync_method.length > 0);
  });
});
