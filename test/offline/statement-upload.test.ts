// The bank statement upload (docs/decisions/24-payment-outside-the-gateway.md): a statement of 500
// credit lines — 450 naming an awaiting booking's reference for its exact amount, 30 unknown
// references, 20 wrong amounts — marks the 450 paid through mark-paid (each in a transaction of
// its own, each audited with the key) and lists the 50; uploaded again it marks none and lists the
// 450 as already paid. The mapping sent is remembered for the account; duplicates, several
// references, no reference and a booking no longer pending are listed, never guessed; malformed
// CSV, a mapping naming a missing column and a statement too long are clear 4xx; checkout keys 403.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { REFERENCE_ALPHABET } from '../../src/modules/registrations/offline-reference.js';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const OFFLINE = { enabled: true, methods: ['bank_transfer'], payWithinDays: 5 };
const MAPPING = { date: 'Txn Date', narration: 'Description', credit: 'Credit', debit: 'Debit' };
const PREAMBLE =
  'Statement of account,,,,\nAccount No: 50100012345678,,,,\nPeriod: 01/12/2026 to 05/12/2026,,,,\n';
const HEADER = 'Txn Date,Description,Debit,Credit,Balance\n';

interface Listed {
  line: number;
  reason: string;
  reference?: string;
  amount?: number;
  amountDue?: number;
  registrationId?: string;
}

describe('uploading a bank statement', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
  });
  after(async () => server?.close());
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const upload = (body: Record<string, unknown>, key?: string) =>
    api('POST', '/api/v1/offline-payments/statements', body, key);

  async function bookings(
    n: number,
    price: number,
  ): Promise<{ eventId: string; refs: string[]; ids: string[] }> {
    const ev = await createEventData(api, { price, capacity: n, offlinePayment: OFFLINE }, { publish: true });
    const refs: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: `Buyer ${i}`,
        email: uniqueEmail(`stmt${i}`),
        paymentMethod: 'bank_transfer',
      });
      assert.equal(r.status, 201, r.text);
      refs.push(r.body.awaitingPayment.reference);
      ids.push(r.body.registrationId);
    }
    return { eventId: ev.id, refs, ids };
  }
  /** A reference no booking has (the test's own, from the same alphabet). */
  const unknownRef = (i: number) =>
    `TKT-ZZ${REFERENCE_ALPHABET[i % 32]}${REFERENCE_ALPHABET[Math.floor(i / 32) % 32]}ZZ`;
  const row = (day: number, narration: string, credit: string, debit = '') =>
    `${String(day).padStart(2, '0')}/12/2026,"${narration}",${debit},"${credit}","99,999.00"\n`;

  it('marks 450 exact matches paid and lists 50; a re-upload marks none and lists the 450 as already paid', async () => {
    const { eventId: eventOf, refs, ids } = await bookings(470, 1499);
    // The reference as buyers write it: exact, lower case, no hyphen.
    const written = (r: string, i: number) =>
      i % 3 === 0 ? r : i % 3 === 1 ? r.toLowerCase() : r.replace('-', '');
    let csv = PREAMBLE + HEADER;
    for (let i = 0; i < 450; i++)
      csv += row(1 + (i % 5), `NEFT CR-HDFC0000123-BUYER ${i}-${written(refs[i]!, i)}`, '1,499.00');
    for (let i = 0; i < 30; i++) csv += row(3, `UPI/41234567${i}/${unknownRef(i)}/okaxis`, '1,499.00');
    for (let i = 450; i < 470; i++) csv += row(4, `IMPS ${refs[i]} part`, '500.00');

    const first = await upload({ csv, mapping: MAPPING });
    assert.equal(first.status, 200, first.text);
    const s = first.body.data;
    assert.equal(s.lines, 500);
    assert.equal(s.marked, 450);
    assert.equal(s.listed.length, 50);
    assert.equal(s.mappingSource, 'given');
    const reasons = (l: Listed[]) =>
      l.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x.reason]: (acc[x.reason] ?? 0) + 1 }), {});
    assert.deepEqual(reasons(s.listed), { unknown_reference: 30, amount_differs: 20 });
    const wrong = s.listed.find((l: Listed) => l.reason === 'amount_differs')!;
    assert.equal(wrong.amount, 500);
    assert.equal(wrong.amountDue, 1499);
    assert.ok(ids.slice(450).includes(wrong.registrationId!));
    assert.equal(s.listed[0].line, 455, 'lines of the file: 3 preamble rows, the header, 450 matches');

    const db = server.deps.db;
    const paid = await sql<{ n: number; tx: number }>`select count(*)::int as n,
        count(distinct xmin::text)::int as tx from registrations
        where id in (${sql.join(ids.slice(0, 450))}) and status = 'confirmed'`.execute(db);
    assert.equal(paid.rows[0]!.n, 450, 'the 450 are confirmed');
    assert.equal(paid.rows[0]!.tx, 450, 'each in a transaction of its own');
    const audit = await sql<{ n: number }>`select count(*)::int as n from audit_log
        where action = 'registration.mark_paid' and target_id in (${sql.join(ids)})`.execute(db);
    assert.equal(audit.rows[0]!.n, 450, 'one audit entry per booking marked');
    const one = await api('GET', `/api/v1/events/${eventOf}/registrations/${ids[7]}`);
    assert.equal(one.body.data.status, 'confirmed', one.text);
    const doc = await sql<{ offline_paid: { method: string; paidAt: string; amountPaise: number } }>`
      select offline_paid from registrations where id = ${ids[7]!}`.execute(db);
    assert.equal(doc.rows[0]!.offline_paid.method, 'bank_transfer');
    assert.equal(doc.rows[0]!.offline_paid.paidAt, '2026-12-02T18:30:00.000Z', 'the line’s day, India time');
    assert.equal(doc.rows[0]!.offline_paid.amountPaise, 149900);
    const unpaid = await sql<{ n: number }>`select count(*)::int as n from registrations
        where id in (${sql.join(ids.slice(450))}) and status = 'pending'`.execute(db);
    assert.equal(unpaid.rows[0]!.n, 20, 'a part payment marks nothing');

    // Again, without a mapping: the account's remembered one reads it.
    const again = await upload({ csv });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.mappingSource, 'remembered');
    assert.deepEqual(again.body.data.mapping, MAPPING);
    assert.equal(again.body.data.marked, 0);
    assert.deepEqual(reasons(again.body.data.listed), {
      already_paid: 450,
      unknown_reference: 30,
      amount_differs: 20,
    });
    const audit2 = await sql<{ n: number }>`select count(*)::int as n from audit_log
        where action = 'registration.mark_paid' and target_id in (${sql.join(ids)})`.execute(db);
    assert.equal(audit2.rows[0]!.n, 450, 'nothing marked twice');
  });

  it('lists duplicates, several references, no reference and bookings no longer pending; counts debits', async () => {
    const { eventId, refs, ids } = await bookings(5, 200);
    const cancel = await api('POST', `/api/v1/events/${eventId}/registrations/${ids[4]}/cancel`, {});
    assert.equal(cancel.status, 200, cancel.text);
    const csv =
      HEADER +
      row(1, `NEFT ${refs[0]}`, '200.00') +
      row(1, `NEFT again ${refs[0]}`, '200.00') +
      row(2, `${refs[1]} and ${refs[2]}`, '400.00') +
      row(2, 'CASH DEPOSIT', '200.00') +
      row(3, `tkt ${refs[3]!.slice(4, 7)} ${refs[3]!.slice(7)}`, '200.00') +
      row(3, `NEFT ${refs[4]}`, '200.00') +
      row(4, 'ATM WDL', '', '1,000.00');
    const r = await upload({ csv, mapping: MAPPING });
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.equal(d.debits, 1);
    assert.deepEqual(
      d.markedLines.map((m: { registrationId: string }) => m.registrationId),
      [ids[3]],
      'spaces inside the reference are read when they leave one reading',
    );
    assert.deepEqual(
      d.listed.map((l: Listed) => [l.line, l.reason]),
      [
        [2, 'duplicate_reference'],
        [3, 'duplicate_reference'],
        [4, 'several_references'],
        [5, 'no_reference'],
        [7, 'not_pending'],
      ],
    );
  });

  it('recognises common headers, remembers a mapping per account, and refuses what it cannot read', async () => {
    const other = await organiser(server.url, 'test');
    const as = (body: Record<string, unknown>) =>
      api('POST', '/api/v1/offline-payments/statements', body, other.key);
    const sbi =
      'Txn Date,Value Date,Description,Ref No./Cheque No.,Debit,Credit,Balance\n02 Dec 2026,02 Dec 2026,BY TRANSFER-NEFT,N123,,"2,000.00","10,000.00"\n';
    const recognised = await as({ csv: sbi });
    assert.equal(recognised.status, 200, recognised.text);
    assert.equal(recognised.body.data.mappingSource, 'recognised');
    assert.deepEqual(recognised.body.data.listed, [{ line: 2, reason: 'no_reference', amount: 2000 }]);

    const odd = 'Posted,Info,Value\n2026-12-02,TKT-ABCDEF,100\n';
    const third = await organiser(server.url, 'test');
    const none = await api('POST', '/api/v1/offline-payments/statements', { csv: odd }, third.key);
    assert.equal(none.status, 400, none.text);
    assert.equal(none.body.code, 'statement_mapping_required');
    assert.deepEqual(none.body.columns, ['Posted', 'Info', 'Value']);
    const mapped = await api(
      'POST',
      '/api/v1/offline-payments/statements',
      { csv: odd, mapping: { date: 'Posted', narration: 'Info', amount: 'Value' } },
      third.key,
    );
    assert.equal(mapped.status, 200, mapped.text);
    assert.equal(mapped.body.data.listed[0].reason, 'unknown_reference');
    const remembered = await api('POST', '/api/v1/offline-payments/statements', { csv: odd }, third.key);
    assert.equal(remembered.body.data.mappingSource, 'remembered', 'remembered for that account');

    const missing = await as({
      csv: sbi,
      mapping: { date: 'Date', narration: 'Description', amount: 'Amount' },
    });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.code, 'statement_column_missing');
    assert.deepEqual(missing.body.missing, ['Date', 'Amount']);
    const bad = await as({ csv: 'Date,Narration,Amount\n"02/12/2026,oops\n' });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.code, 'invalid_statement');
    const both = await as({ csv: sbi, mapping: { date: 'Txn Date', narration: 'Description' } });
    assert.equal(both.status, 400, both.text);
    const long = await as({ csv: `Txn Date,Description,Debit,Credit\n${'02/12/2026,x,,1\n'.repeat(5001)}` });
    assert.equal(long.status, 413, long.text);
    assert.equal(long.body.code, 'statement_too_large');
  });

  it('is refused to checkout keys', async () => {
    const pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    const r = await upload({ csv: HEADER }, pk);
    assert.equal(r.status, 403, r.text);
  });
});
