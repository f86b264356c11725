// CSV exports (docs/decisions/17-the-organisers-office.md) through HTTP: every file read back with csv-parse has every cell as it
// was given — names with commas, quotes, line breaks and any script, answers beginning with
// a formula character shown with a leading ' — behind a byte order mark, with CRLF records;
// the filters, the key's mode and account, and the dashboard's downloads answering the same.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi, paidBooking, payInSandbox } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** An instant as the files write it: India time, offset written out. */
const ist = (iso: string | null) =>
  iso === null ? '' : `${new Date(Date.parse(iso) + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;

interface CsvFile {
  status: number;
  headers: Headers;
  bytes: Buffer;
  header: string[];
  rows: string[][];
  /** Rows as objects by header (headers are unique in every file). */
  records: Record<string, string>[];
}

async function download(url: string, init: RequestInit = {}): Promise<CsvFile> {
  const res = await fetch(url, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200)
    return { status: res.status, headers: res.headers, bytes, header: [], rows: [], records: [] };
  const all = parse(bytes, { bom: true, relax_column_count: false }) as string[][];
  const [header = [], ...rows] = all;
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    header,
    rows,
    records: rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!]))),
  };
}

describe('CSV exports', { timeout: 120_000 }, () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const csv = (path: string, key = org.key) => download(server.url + path, { headers: { 'x-api-key': key } });

  let eventId: string;
  let slug: string;
  let paidEventId: string;
  const reg: Record<'asha' | 'formula' | 'minus' | 'unicode', string> = {
    asha: '',
    formula: '',
    minus: '',
    unicode: '',
  };
  let invoiced: { sold: string; refunded: string };
  const HYPERLINK = '=HYPERLINK("http://evil.example/?q=1","Click me")';

  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');

    // A free team event with tracks, a tier and questions of every kind (two share a label,
    // one label begins with "=").
    eventId = await createEvent(api, {
      title: 'Export night',
      capacity: 100,
      maxTeamSize: 3,
      tracks: [{ title: 'Workshop, Room "A"' }, { title: 'कार्यशाला · தமிழ்' }],
      specialPrices: [{ name: 'Student, early', price: 0 }],
      customFields: [
        { name: 'org', label: 'Organisation', type: 'text' },
        { name: 'note', label: '=Notes', type: 'text' },
        { name: 'consent', label: 'Photo consent', type: 'checkbox' },
        { name: 'size', label: 'T-shirt', type: 'select', options: ['S', 'M'] },
        { name: 'age', label: 'Age', type: 'number' },
        { name: 'city', label: 'City', type: 'text' },
        { name: 'city2', label: 'City', type: 'text' },
      ],
    });
    const ev = await api('GET', `/api/v1/events/${eventId}`);
    slug = ev.body.data.slug;
    const book = async (body: Record<string, unknown>) => {
      const r = await api('POST', `/api/v1/events/${eventId}/register`, {
        email: uniqueEmail('guest'),
        ...body,
      });
      assert.equal(r.status, 201, r.text);
      return r.body.registrationId as string;
    };
    reg.asha = await book({
      name: 'Asha, "Ace" Rao',
      subEventId: '1',
      teamMembers: [
        { name: HYPERLINK, email: 'team.one@example.in' },
        { name: 'Ravi; Kumar', email: 'team.two@example.in' },
      ],
      customFields: {
        org: 'Acme, Inc.',
        note: 'line one\nline two\r\nline three',
        consent: true,
        size: 'M',
        age: 42,
        city: 'Pune',
        city2: 'Mumbai',
      },
    });
    reg.formula = await book({
      name: HYPERLINK,
      ticketType: 'Student, early',
      customFields: { org: '-2+3', note: '@SUM(A1:A9)' },
    });
    reg.minus = await book({
      name: '-2+3',
      subEventId: '0',
      customFields: { org: '+91 98123 45678', note: '\tTabbed', city: '\rCarriage' },
    });
    reg.unicode = await book({
      name: 'सुब्रमण्यम् தமிழ் ₹999 😀',
      customFields: { org: 'Ünïcödé “quotes” — dash', consent: false },
    });
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: reg.asha })).status,
      201,
    );
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/registrations/${reg.minus}/cancel`)).status,
      200,
    );
    // The T-shirt question is dropped after people answered it: its answers go to other_answers.
    const questions = ev.body.data.customFields.filter((f: { name: string }) => f.name !== 'size');
    const patched = await api('PATCH', `/api/v1/events/${eventId}`, {
      customFields: questions.map((f: any) => ({
        name: f.name,
        label: f.label,
        type: f.type,
        required: f.required,
        options: f.options ?? undefined,
      })),
    });
    assert.equal(patched.status, 200, patched.text);

    // A paid event of a GST-registered organiser (test mode): two paid bookings, one refunded.
    assert.equal(
      (
        await api('PUT', '/api/v1/gst/settings', {
          gstin: '29AAGCR4375J1ZU',
          legalName: 'Rangashankara Arts, "LLP"',
          address: '36/2 8th Cross,\nJP Nagar, Bengaluru',
        })
      ).status,
      200,
    );
    paidEventId = await createEvent(api, { title: 'Paid = night', price: 999, venueState: '27' });
    const buy = async (name: string) =>
      (await paidBooking(api, paidEventId, { name, email: uniqueEmail('buyer') })).registrationId;
    invoiced = { sold: await buy('Meera Iyer'), refunded: await buy('+Plus Buyer') };
    assert.equal(
      (await api('POST', `/api/v1/events/${paidEventId}/registrations/${invoiced.refunded}/refund`)).status,
      200,
    );

    // A member, paid.
    const plan = await api('POST', '/api/v1/memberships/plans', {
      name: 'Annual, "gold"',
      amount: 1200,
      kind: 'fixed_term',
      termMonths: 12,
    });
    assert.equal(plan.status, 201, plan.text);
    const s = await api('POST', '/api/v1/memberships/subscribe', {
      planId: plan.body.data.id,
      name: '@Member Name',
      email: uniqueEmail('member'),
    });
    assert.equal(s.status, 201, s.text);
    const paymentId = await payInSandbox(api, s.body.orderId);
    assert.equal(
      (
        await api('POST', `/api/v1/memberships/${s.body.membershipId}/confirm`, {
          orderId: s.body.orderId,
          paymentId,
        })
      ).status,
      200,
    );
  });
  after(async () => {
    await server?.close();
  });

  it('writes the registrations as RFC 4180 CSV in UTF-8 with a BOM, every cell intact and none a formula', async () => {
    const f = await csv(`/api/v1/events/${eventId}/registrations/export`);
    assert.equal(f.status, 200);
    assert.equal(f.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(
      f.headers.get('content-disposition')!,
      new RegExp(`^attachment; filename="registrations-${slug}-test-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    assert.equal(f.headers.get('cache-control'), 'private, no-store');
    assert.deepEqual(f.bytes.subarray(0, 3), BOM, 'starts with the UTF-8 byte order mark');
    assert.ok(
      f.bytes.subarray(3).toString('utf8').startsWith('registration_id,status,'),
      'one BOM, then the header',
    );
    assert.ok(f.bytes.toString('utf8').endsWith('\r\n'), 'records end with CRLF');
    assert.deepEqual(f.header, [
      'registration_id',
      'status',
      'pending_reason',
      'name',
      'email',
      'phone',
      'ticket_type',
      'track_number',
      'track',
      'quantity',
      'team_members',
      'amount',
      'currency',
      'payment_method',
      'payment_reference',
      'pay_by',
      'paid_reference',
      'paid_at',
      'promo_code',
      'invoice_number',
      'credit_note_number',
      'checked_in',
      'checked_in_at',
      'people_checked_in',
      'ticket_code',
      'booked_at',
      'confirmed_at',
      'cancelled_at',
      'Organisation',
      "'=Notes",
      'Photo consent',
      'Age',
      'City [city]',
      'City [city2]',
      'other_answers',
    ]);
    // The API's own view of each booking is what every cell must say.
    const list = (await api('GET', `/api/v1/events/${eventId}/registrations`)).body.data as any[];
    assert.deepEqual(
      f.rows.map((r) => r[0]),
      list.map((r) => r.id),
      'oldest first, one record per booking',
    );
    const byId = new Map(list.map((r) => [r.id, r]));
    const expected = (id: string, cells: Record<string, string>) => {
      const r = byId.get(id);
      return {
        registration_id: id,
        status: r.status,
        pending_reason: '',
        email: r.email,
        phone: '',
        ticket_type: 'General',
        track_number: '',
        track: '',
        quantity: String(r.quantity),
        team_members: '',
        amount: '0.00',
        currency: 'INR',
        payment_method: '',
        payment_reference: '',
        pay_by: '',
        paid_reference: '',
        paid_at: '',
        promo_code: '',
        invoice_number: '',
        credit_note_number: '',
        checked_in: 'no',
        checked_in_at: '',
        people_checked_in: '0',
        ticket_code: '',
        booked_at: ist(r.createdAt),
        confirmed_at: ist(r.confirmedAt),
        cancelled_at: '',
        Organisation: '',
        "'=Notes": '',
        'Photo consent': '',
        Age: '',
        'City [city]': '',
        'City [city2]': '',
        other_answers: '',
        ...cells,
      };
    };
    const record = (id: string) => f.records.find((r) => r.registration_id === id);
    assert.equal(byId.get(reg.asha).teamMembers.filter((m: { checkedIn: boolean }) => m.checkedIn).length, 2);
    assert.deepEqual(
      record(reg.asha),
      expected(reg.asha, {
        name: 'Asha, "Ace" Rao',
        track_number: '2',
        track: 'कार्यशाला · தமிழ்',
        team_members: `'${HYPERLINK} <team.one@example.in>; Ravi; Kumar <team.two@example.in>`,
        checked_in: 'yes',
        checked_in_at: ist(byId.get(reg.asha).checkedInAt),
        // The door admitted the whole booking.
        people_checked_in: String(
          1 + byId.get(reg.asha).teamMembers.filter((m: { checkedIn: boolean }) => m.checkedIn).length,
        ),
        Organisation: 'Acme, Inc.',
        "'=Notes": 'line one\nline two\r\nline three',
        'Photo consent': 'yes',
        Age: '42',
        'City [city]': 'Pune',
        'City [city2]': 'Mumbai',
        other_answers: '{"size":"M"}',
      }),
    );
    assert.deepEqual(
      record(reg.formula),
      expected(reg.formula, {
        name: `'${HYPERLINK}`,
        ticket_type: 'Student, early',
        Organisation: "'-2+3",
        "'=Notes": "'@SUM(A1:A9)",
      }),
    );
    const minus = byId.get(reg.minus);
    assert.equal(minus.status, 'cancelled');
    assert.deepEqual(
      record(reg.minus),
      expected(reg.minus, {
        name: "'-2+3",
        track_number: '1',
        track: 'Workshop, Room "A"',
        cancelled_at: record(reg.minus)!.cancelled_at,
        Organisation: "'+91 98123 45678",
        "'=Notes": "'\tTabbed",
        'City [city]': "'\rCarriage",
      }),
    );
    assert.match(record(reg.minus)!.cancelled_at!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    assert.deepEqual(
      record(reg.unicode),
      expected(reg.unicode, {
        name: 'सुब्रमण्यम् தமிழ் ₹999 😀',
        Organisation: 'Ünïcödé “quotes” — dash',
        'Photo consent': 'no',
      }),
    );
    // No cell anywhere begins with a formula character.
    for (const cell of [...f.header, ...f.rows.flat()])
      assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(cell));
  });

  it('filters by status, tier, track, check-in and search, as the list pages do', async () => {
    const ids = async (query: string) =>
      (await csv(`/api/v1/events/${eventId}/registrations/export?${query}`)).rows.map((r) => r[0]).sort();
    assert.deepEqual(await ids('status=cancelled'), [reg.minus]);
    assert.deepEqual(await ids('status=confirmed'), [reg.asha, reg.formula, reg.unicode].sort());
    assert.deepEqual(await ids(`ticketType=${encodeURIComponent('Student, early')}`), [reg.formula]);
    assert.deepEqual(await ids('subEventId=1'), [reg.asha]);
    assert.deepEqual(await ids('checkedIn=true'), [reg.asha]);
    assert.deepEqual(await ids('checkedIn=false'), [reg.formula, reg.minus, reg.unicode].sort());
    assert.deepEqual(await ids('q=ASHA'), [reg.asha]);
    assert.deepEqual(await ids('status=confirmed&checkedIn=false'), [reg.formula, reg.unicode].sort());
    const none = await csv(`/api/v1/events/${eventId}/registrations/export?status=refunded`);
    assert.equal(none.rows.length, 0);
    assert.deepEqual(none.bytes.subarray(0, 3), BOM, 'an empty export still has its BOM and header');
    assert.equal(none.header[0], 'registration_id');
    for (const [query, code] of [
      ['status=bogus', 'invalid_request'],
      ['subEventId=first', 'invalid_track_index'],
      ['checkedIn=maybe', 'invalid_request'],
      ['unknown=1', 'invalid_request'],
    ] as const) {
      const r = await api('GET', `/api/v1/events/${eventId}/registrations/export?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.code, code, `${query}: ${r.text}`);
    }
  });

  it('names the invoice and credit note of each paid booking, as the GST documents file does', async () => {
    const invoice = (await api('GET', `/api/v1/events/${paidEventId}/registrations/${invoiced.sold}/invoice`))
      .body.data;
    const refundedInvoice = (
      await api('GET', `/api/v1/events/${paidEventId}/registrations/${invoiced.refunded}/invoice`)
    ).body.data;
    const creditNote = (
      await api('GET', `/api/v1/events/${paidEventId}/registrations/${invoiced.refunded}/credit-note`)
    ).body.data;
    const regs = await csv(`/api/v1/events/${paidEventId}/registrations/export`);
    const row = (id: string) => regs.records.find((r) => r.registration_id === id)!;
    assert.deepEqual(
      [row(invoiced.sold).invoice_number, row(invoiced.sold).credit_note_number, row(invoiced.sold).amount],
      [invoice.number, '', '999.00'],
    );
    assert.deepEqual(
      [
        row(invoiced.refunded).name,
        row(invoiced.refunded).status,
        row(invoiced.refunded).invoice_number,
        row(invoiced.refunded).credit_note_number,
      ],
      ["'+Plus Buyer", 'refunded', refundedInvoice.number, creditNote.number],
    );

    const docs = await csv('/api/v1/gst/documents/export');
    assert.equal(docs.status, 200);
    assert.match(
      docs.headers.get('content-disposition')!,
      /^attachment; filename="gst-documents-test-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    assert.deepEqual(docs.bytes.subarray(0, 3), BOM);
    // Number order within each series: credit notes (TIXC…) before invoices (TIXI…).
    assert.deepEqual(
      docs.records.map((d) => d.number),
      [
        creditNote.number,
        invoice.number < refundedInvoice.number ? invoice.number : refundedInvoice.number,
        invoice.number < refundedInvoice.number ? refundedInvoice.number : invoice.number,
      ],
    );
    const inv = docs.records.find((d) => d.number === invoice.number)!;
    assert.deepEqual(
      { ...inv },
      {
        number: invoice.number,
        kind: 'tax_invoice',
        date: invoice.date,
        issued_at: ist(invoice.issuedAt),
        financial_year: invoice.financialYear,
        supplier_gstin: '29AAGCR4375J1ZU',
        supplier_name: 'Rangashankara Arts, "LLP"',
        recipient_name: 'Meera Iyer',
        recipient_email: invoice.recipient.email,
        recipient_gstin: '',
        recipient_address: '',
        recipient_state: '27-Maharashtra',
        place_of_supply: '27-Maharashtra',
        supply_type: 'inter_state',
        sac: invoice.line.sac,
        description: invoice.line.description,
        quantity: '1',
        rate_percent: '18',
        taxable_value: '846.61',
        cgst: '0.00',
        sgst: '0.00',
        utgst: '0.00',
        igst: '152.39',
        total: '999.00',
        original_number: '',
        original_date: '',
        reason: '',
        event_id: paidEventId,
        registration_id: invoiced.sold,
        payment_id: invoice.paymentId,
        test_mode: 'yes',
      },
    );
    const cn = docs.records.find((d) => d.number === creditNote.number)!;
    assert.deepEqual(
      [cn.kind, cn.recipient_name, cn.total, cn.igst, cn.original_number, cn.original_date, cn.reason],
      [
        'credit_note',
        "'+Plus Buyer",
        '999.00',
        '152.39',
        refundedInvoice.number,
        refundedInvoice.date,
        creditNote.reason,
      ],
    );
    const today = invoice.date as string;
    assert.equal((await csv(`/api/v1/gst/documents/export?from=${today}&to=${today}`)).rows.length, 3);
    assert.equal((await csv('/api/v1/gst/documents/export?to=2020-01-01')).rows.length, 0);
    const bad = await api('GET', '/api/v1/gst/documents/export?from=2026-02-30');
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_date']);
    const backwards = await api('GET', '/api/v1/gst/documents/export?from=2026-04-02&to=2026-04-01');
    assert.deepEqual([backwards.status, backwards.body.code], [400, 'invalid_date']);
  });

  it('writes the ledger as credits and debits without a sign, adding up to the balance', async () => {
    const f = await csv('/api/v1/ledger/export');
    assert.equal(f.status, 200);
    assert.match(
      f.headers.get('content-disposition')!,
      /^attachment; filename="ledger-test-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    assert.deepEqual(f.header, [
      'entry_id',
      'created_at',
      'kind',
      'description',
      'credit',
      'debit',
      'currency',
      'source_type',
      'source_id',
      'payment_id',
      'captured_at',
      'available_from',
      'state',
    ]);
    const entries = (
      await call(server.url, 'GET', '/dashboard/api/ledger?mode=test&limit=1000', { token: org.token })
    ).body.data as any[];
    assert.deepEqual(
      f.records.map((r) => r.entry_id),
      entries.map((e) => e.id).reverse(),
      'every entry, in the order written',
    );
    for (const r of f.records) {
      const e = entries.find((x) => x.id === r.entry_id);
      const amount = e.amount.toFixed(2);
      assert.deepEqual(
        [r.kind, r.credit, r.debit, r.source_type, r.source_id, r.created_at],
        [
          e.kind,
          e.amount >= 0 ? amount : '',
          e.amount < 0 ? amount.slice(1) : '',
          e.source.type,
          e.source.id,
          ist(e.createdAt),
        ],
      );
      assert.match(r.credit || r.debit, /^\d+\.\d{2}$/, 'amounts are plain numbers, never a prefixed text');
    }
    assert.ok(
      f.records.some(
        (r) => r.kind === 'ticket_refund' && r.debit === '999.00' && r.source_id === invoiced.refunded,
      ),
    );
    assert.ok(
      f.records.some((r) => r.kind === 'membership_payment' && r.credit === '1200.00' && r.payment_id !== ''),
    );
    const paise = (s: string) => (s === '' ? 0 : Math.round(Number(s) * 100));
    const net = f.records.reduce((sum, r) => sum + paise(r.credit) - paise(r.debit), 0);
    const balance = (await call(server.url, 'GET', '/dashboard/api/balance?mode=test', { token: org.token }))
      .body;
    assert.equal(net, Math.round((balance.available + balance.pending) * 100));
  });

  it('writes the members with plan, state and dates', async () => {
    const f = await csv('/api/v1/memberships/members/export');
    assert.equal(f.status, 200);
    assert.match(
      f.headers.get('content-disposition')!,
      /^attachment; filename="members-test-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const members = (await api('GET', '/api/v1/memberships/members')).body.data as any[];
    assert.equal(f.records.length, members.length);
    const m = members[0];
    assert.deepEqual(f.records[0], {
      membership_id: m.id,
      name: "'@Member Name",
      email: m.email,
      phone: '',
      plan_id: m.planId,
      plan: 'Annual, "gold"',
      plan_kind: 'fixed_term',
      state: m.displayStatus,
      good_standing: m.goodStanding ? 'yes' : 'no',
      status: m.status,
      valid_until: ist(m.validUntil),
      cancel_at_period_end: 'no',
      ended_at: '',
      source: 'api',
      subscription_id: '',
      joined_at: ist(m.createdAt),
    });
    assert.equal(m.goodStanding, true);
    assert.equal((await csv(`/api/v1/memberships/members/export?planId=${m.planId}`)).rows.length, 1);
    assert.equal((await csv('/api/v1/memberships/members/export?planId=plan_none')).rows.length, 0);
  });

  it('answers a filter it cannot store (a NUL byte) as JSON 400 before any of the file, on every export', async () => {
    for (const path of [
      `/api/v1/events/${eventId}/registrations/export?q=%00`,
      '/api/v1/memberships/members/export?planId=%00',
      '/api/v1/memberships/members/export?planId=a%00b',
    ]) {
      const r = await api('GET', path);
      assert.deepEqual([r.status, r.body.code], [400, 'invalid_characters'], path);
      assert.match(
        r.headers.get('content-type') ?? '',
        /^application\/json/,
        `${path}: the error is JSON, not a CSV`,
      );
      assert.equal(r.headers.get('content-disposition'), null, `${path}: no download of an error`);
    }
  });

  it('keeps to the key’s account and mode, and to full keys', async () => {
    const live = await createKey(server.url, org.token, { mode: 'live' });
    const liveReg = await api('GET', `/api/v1/events/${eventId}/registrations/export`, undefined, live.key);
    assert.deepEqual(
      [liveReg.status, liveReg.body.code],
      [404, 'event_not_found'],
      'a test event does not exist for a live key',
    );
    for (const path of [
      '/api/v1/memberships/members/export',
      '/api/v1/ledger/export',
      '/api/v1/gst/documents/export',
    ]) {
      const f = await csv(path, live.key);
      assert.equal(f.status, 200, path);
      assert.equal(f.rows.length, 0, `${path}: the live mode has nothing of test mode`);
      assert.doesNotMatch(f.headers.get('content-disposition')!, /-test-/);
    }
    const stranger = await organiser(server.url, 'test');
    const theirs = await api(
      'GET',
      `/api/v1/events/${eventId}/registrations/export`,
      undefined,
      stranger.key,
    );
    assert.deepEqual([theirs.status, theirs.body.code], [403, 'not_your_object']);
    assert.equal((await csv('/api/v1/ledger/export', stranger.key)).rows.length, 0);
    const checkout = await createKey(server.url, org.token, { mode: 'test', class: 'checkout' });
    for (const path of [
      `/api/v1/events/${eventId}/registrations/export`,
      '/api/v1/memberships/members/export',
      '/api/v1/ledger/export',
      '/api/v1/gst/documents/export',
    ]) {
      assert.equal(
        (await api('GET', path, undefined, checkout.key)).status,
        403,
        `${path}: personal data is for full keys`,
      );
      assert.equal((await call(server.url, 'GET', path)).status, 401, `${path}: needs a key`);
    }
  });

  it('gives the same files through the dashboard’s download buttons, in the dashboard’s mode', async () => {
    const c = new DashboardClient(server.url);
    const page = await c.get('/dashboard/login');
    assert.equal(
      (
        await c.post('/dashboard/login', {
          _csrf: DashboardClient.csrf(page.text),
          email: org.email,
          password: 'correct horse battery',
        })
      ).status,
      303,
    );
    const regs = await c.get(`/dashboard/events/${eventId}/registrations?status=confirmed`);
    assert.match(
      regs.text,
      new RegExp(
        `href="/dashboard/events/${eventId}/registrations/export\\?status=confirmed" download>Download CSV</a>`,
      ),
    );
    assert.match(
      (await c.get('/dashboard/memberships')).text,
      /href="\/dashboard\/memberships\/export" download>Download members \(CSV\)<\/a>/,
    );
    assert.match(
      (await c.get('/dashboard/money/ledger')).text,
      /<form method="get" action="\/dashboard\/money\/ledger\/export"/,
    );
    assert.match(
      (await c.get('/dashboard/account')).text,
      /<form method="get" action="\/dashboard\/account\/gst\/export"/,
    );
    const same = async (dashboardPath: string, apiPath: string) => {
      const fromDashboard = await download(server.url + dashboardPath, {
        headers: { cookie: c.cookieHeader() },
      });
      const fromApi = await csv(apiPath);
      assert.equal(fromDashboard.status, 200, dashboardPath);
      assert.equal(fromDashboard.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(
        fromDashboard.headers.get('content-disposition'),
        fromApi.headers.get('content-disposition'),
      );
      assert.deepEqual(fromDashboard.rows, fromApi.rows, dashboardPath);
      assert.ok(fromDashboard.rows.length > 0, dashboardPath);
    };
    await same(
      `/dashboard/events/${eventId}/registrations/export?status=confirmed&q=`,
      `/api/v1/events/${eventId}/registrations/export?status=confirmed`,
    );
    await same('/dashboard/memberships/export', '/api/v1/memberships/members/export');
    await same('/dashboard/money/ledger/export?from=&to=', '/api/v1/ledger/export');
    await same('/dashboard/account/gst/export?from=&to=', '/api/v1/gst/documents/export');
    const bad = await c.get('/dashboard/money/ledger/export?from=2026-13-01');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /From must be a day as YYYY-MM-DD/);
    assert.equal(
      (await new DashboardClient(server.url).get('/dashboard/memberships/export')).status,
      303,
      'signed out: to the sign-in page',
    );
  });
});
