// What a free booking costs the indexes of its table. Every free booking is a row of
// `registrations`, and its commit writes an entry into each index of the table whose
// predicate the row meets; an index of a column the booking leaves null (its gateway order
// and payment, a transferred ticket's code) would hold an entry per free booking that nothing
// ever looks up: writes on the hot path of a drop, and, at millions of bookings, an index
// made mostly of nulls. So such an index is partial (`where … is not null`), and its
// uniqueness, among the values that exist, is unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { organiserWithEvent, type Api } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registrationRow } from '../helpers/rows.js';

describe('the indexes a free booking writes', () => {
  let server: TestServer;
  let api: Api;
  let eventId: string;
  before(async () => {
    server = await startServer();
    ({ api, eventId } = await organiserWithEvent(server.url, { title: 'Free', startDate: '2026-12-31' }));
  });
  after(() => server.close());

  /** The registrations table's indexes: name, unique, partial, and the columns they key on (expressions left out). */
  async function indexes() {
    const r = await sql<{ name: string; unique: boolean; partial: boolean; columns: string[] }>`
      select c.relname as name, i.indisunique as unique, i.indpred is not null as partial,
        array(select a.attname::text from unnest(i.indkey) k join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k where k > 0) as columns
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'registrations'::regclass`.execute(server.deps.db);
    return r.rows;
  }

  it('has no whole-table index on a column a free booking leaves null', async () => {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha',
      email: 'asha@example.in',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const row = (await registrationRow(server, r.body.registrationId)) as unknown as Record<string, unknown>;
    const nulls = new Set(Object.keys(row).filter((k) => row[k] === null));
    assert.ok(nulls.has('order_id') && nulls.has('payment_id') && nulls.has('ticket_code'));
    const all = await indexes();
    const wasted = all.filter((i) => !i.partial && i.columns.some((c) => nulls.has(c))).map((i) => i.name);
    assert.deepEqual(wasted, []);
    // The three kept unique among the values that exist.
    for (const column of ['order_id', 'payment_id', 'ticket_code'])
      assert.ok(
        all.some((i) => i.unique && i.partial && i.columns.length === 1 && i.columns[0] === column),
        `a unique partial index on ${column}`,
      );
  });

  it('still refuses a second booking with the same gateway order, payment or ticket code', async () => {
    const ids: string[] = [];
    for (const name of ['Bina', 'Chetan']) {
      const r = await api('POST', `/api/v1/events/${eventId}/register`, {
        name,
        email: `${name.toLowerCase()}@example.in`,
      });
      assert.equal(r.status, 201);
      ids.push(r.body.registrationId);
    }
    for (const column of ['order_id', 'payment_id', 'ticket_code'] as const) {
      const value = `dup_${column}_${Date.now()}`;
      await server.deps.db
        .updateTable('registrations')
        .set({ [column]: value })
        .where('id', '=', ids[0]!)
        .execute();
      await assert.rejects(
        server.deps.db
          .updateTable('registrations')
          .set({ [column]: value })
          .where('id', '=', ids[1]!)
          .execute(),
        (e: { code?: string }) => e.code === '23505',
      );
      await server.deps.db
        .updateTable('registrations')
        .set({ [column]: null })
        .where('id', '=', ids[0]!)
        .execute();
    }
  });
});
