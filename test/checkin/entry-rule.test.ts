// Who may enter is one rule (issue #23): the SQL the one-statement admit is generated from
// (`admissibleSql`) is evaluated by the database over every status and QR kind and must
// agree with `refusalOf`, which the API's scan, the roster and offline sync ask.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { admissibleSql, isRetiredQr, refusalOf } from '../../src/modules/checkin/entry-rule.js';
import type { RegistrationStatus } from '../../src/db/database.js';
import { startServer, type TestServer } from '../helpers/server.js';

const STATUSES: RegistrationStatus[] = ['pending', 'confirmed', 'cancelled', 'refunded'];

describe('the door decides entry by one rule, in TypeScript and in SQL', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('the admit statement’s condition admits exactly what refusalOf admits', async () => {
    const cases = STATUSES.flatMap((status) =>
      [0, 1].flatMap((idx) => [null, 'tkt_new'].map((code) => ({ status, idx, code }))),
    );
    const rows = await sql<{
      status: RegistrationStatus;
      scanned_idx: number;
      ticket_code: string | null;
      admitted: boolean;
    }>`
      select t.status, t.scanned_idx, t.ticket_code, (${admissibleSql('t')}) as admitted
      from unnest(${cases.map((c) => c.status)}::text[], ${cases.map((c) => c.idx)}::int[], ${cases.map((c) => c.code)}::text[]) as t(status, scanned_idx, ticket_code)`.execute(
      server.deps.db,
    );
    assert.equal(rows.rows.length, cases.length);
    for (const r of rows.rows) {
      const expected = refusalOf(r.status, isRetiredQr(r.scanned_idx, r.ticket_code)) === undefined;
      assert.equal(r.admitted, expected, `${r.status}, index ${r.scanned_idx}, ticket code ${r.ticket_code}`);
    }
    assert.equal(
      rows.rows.filter((r) => r.admitted).length,
      3,
      'a confirmed booking, except its retired booking-id QR',
    );
  });
});
