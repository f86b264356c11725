// The ledger cannot be rewritten (docs/decisions/14-trust-and-safety-second-round.md): the database refuses UPDATE, DELETE and TRUNCATE on
// ledger entries, whoever sends them; appending, and a repeated append, still work.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { insertEntries } from '../../src/modules/ledger/ledger.repo.js';
import { signup, type Account } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('ledger entries are append-only in the database', () => {
  let server: TestServer;
  let account: Account;
  const sourceId = `reg_${randomUUID()}`;
  before(async () => {
    server = await startServer();
    account = await signup(server.url);
    const entry = {
      accountId: account.userId,
      mode: 'live' as const,
      kind: 'ticket_sale' as const,
      amountPaise: 50_000,
      sourceType: 'registration' as const,
      sourceId,
      capturedAt: server.clock.now(),
      createdAt: server.clock.now(),
    };
    assert.equal(await insertEntries(server.deps.db, [entry]), 1);
    assert.equal(
      await insertEntries(server.deps.db, [entry]),
      0,
      'a repeat writes nothing, and is not refused',
    );
  });
  after(async () => {
    await server.close();
  });

  const amount = async () =>
    (
      await sql<{
        amount_paise: string;
      }>`select amount_paise from ledger_entries where source_id = ${sourceId}`.execute(server.deps.db)
    ).rows.map((r) => Number(r.amount_paise));
  const refused = async (statement: ReturnType<typeof sql>) => {
    await assert.rejects(statement.execute(server.deps.db), (err: Error & { code?: string }) => {
      assert.equal(err.code, '23001', err.message);
      assert.match(err.message, /append-only/);
      return true;
    });
  };

  it('refuses UPDATE', async () => {
    await refused(sql`update ledger_entries set amount_paise = 1 where source_id = ${sourceId}`);
    assert.deepEqual(await amount(), [50_000]);
  });

  it('refuses DELETE', async () => {
    await refused(sql`delete from ledger_entries where source_id = ${sourceId}`);
    assert.deepEqual(await amount(), [50_000]);
  });

  it('refuses TRUNCATE', async () => {
    await refused(sql`truncate ledger_entries`);
    assert.deepEqual(await amount(), [50_000]);
  });

  it('refuses deleting an account that has ledger history', async () => {
    await assert.rejects(sql`delete from users where id = ${account.userId}`.execute(server.deps.db));
    assert.deepEqual(await amount(), [50_000]);
  });
});
