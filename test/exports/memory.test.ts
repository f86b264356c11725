// Exports stream in constant memory (docs/decisions/17-the-organisers-office.md): a service process exports an event of 10,000
// registrations and one of 100,000 (bulk-inserted into the database, about 1 KB of answers
// each), and its peak resident memory while sending the second is within 40 MB of its peak
// while sending the first. An export that gathered its rows or its text before sending needs
// far more (measured here: about 7 MB of growth streamed, 210 MB with the file gathered before
// sending, 110 MB with the rows gathered). The peak is the kernel's own (VmHWM, reset through
// /proc/<pid>/clear_refs before each download). The files are read as they arrive and checked
// whole: every booking once, in order.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse';
import { sql } from 'kysely';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const SMALL = 10_000;
const LARGE = 100_000;
/** How much more the large export may take at its peak than the small one. */
const ALLOWED_GROWTH_KB = 40 * 1024;
const WARM_UPS = 3;

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
const kb = (pid: number, field: 'VmHWM' | 'VmRSS') =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status(pid))![1]);
/** Forgets the process's peak resident size: VmHWM restarts from the current size. */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

describe('exports in constant memory', { timeout: 900_000 }, () => {
  let server: TestServer;
  let service: ServiceProcess;
  let dataDir: string;
  let org: Account & KeyInfo;
  const events: Record<'small' | 'large', string> = { small: '', large: '' };

  /**
   * `n` confirmed bookings of an event, each with its person (half of them checked in) and
   * about 800 bytes of answers; created_at in microsecond steps, three bookings to each.
   */
  async function bulkInsert(eventId: string, tag: string, n: number): Promise<void> {
    const db = server.deps.db;
    await sql`
      insert into registrations (id, event_id, account_id, mode, status, name, email, ticket_type, quantity, amount_paise, custom_fields, created_at, confirmed_at)
      select 'reg_' || ${tag} || lpad(i::text, 7, '0'), e.id, e.account_id, e.mode, 'confirmed',
             'Attendee ' || i || ', "Bulk" =' || i, 'attendee' || i || '@example.in', 'General', 1, 0,
             jsonb_build_object('org', 'Org ' || i || E'\n' || 'नमस्ते', 'size', '-' || i, 'about', repeat('A longer answer, ' || i || '. ', 40)),
             ${new Date('2026-11-01T00:00:00Z')}::timestamptz + (i / 3) * interval '1 microsecond',
             ${new Date('2026-11-01T00:00:00Z')}::timestamptz
        from events e, generate_series(1, ${n}::int) i
       where e.id = ${eventId}`.execute(db);
    await sql`
      insert into attendees (id, registration_id, event_id, idx, name, email, checked_in_at)
      select r.id, r.id, r.event_id, 0, r.name, r.email, case when right(r.id, 1)::int % 2 = 0 then r.created_at end
        from registrations r where r.event_id = ${eventId}`.execute(db);
  }

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    for (const which of ['small', 'large'] as const) {
      events[which] = await createEvent(keyApi(server.url, org.key), {
        title: `Bulk ${which}`,
        customFields: [
          { name: 'org', label: 'Organisation' },
          { name: 'size', label: 'Size' },
          { name: 'about', label: 'About you' },
        ],
      });
    }
    await bulkInsert(events.small, 's', SMALL);
    await bulkInsert(events.large, 'l', LARGE);
    dataDir = mkdtempSync(join(tmpdir(), 'svc-export-memory-'));
    const databaseUrl = server.deps.config.databaseUrl ?? embeddedDatabaseUrl(server.dataDir);
    service = await startProcess(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        WORKERS: 'false',
        ...RAISED_LIMITS,
        EMAIL_DNS_CHECK: 'false',
      },
      60_000,
    );
  });
  after(async () => {
    await service?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await server?.close();
  });

  /** Downloads an event's export from the service process, reading it as it arrives; the bookings' ids in file order. */
  async function exportIds(eventId: string): Promise<string[]> {
    const res = await fetch(`${service.url}/api/v1/events/${eventId}/registrations/export`, {
      headers: { 'x-api-key': org.key },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    const ids: string[] = [];
    let header: string[] | undefined;
    for await (const record of Readable.fromWeb(res.body! as ReadableStream).pipe(parse({ bom: true }))) {
      const cells = record as string[];
      if (!header) {
        header = cells;
        continue;
      }
      ids.push(cells[0]!);
      if (ids.length === 1) {
        assert.deepEqual(
          [
            cells[header.indexOf('name')],
            cells[header.indexOf('Organisation')],
            cells[header.indexOf('Size')],
          ],
          ['Attendee 1, "Bulk" =1', 'Org 1\nनमस्ते', "'-1"],
        );
      }
    }
    return ids;
  }

  const expectedIds = (tag: string, n: number) =>
    Array.from({ length: n }, (_, i) => `reg_${tag}${String(i + 1).padStart(7, '0')}`);

  it(`exports ${LARGE.toLocaleString('en-IN')} registrations whole, with no more memory than ${SMALL.toLocaleString('en-IN')} take`, async () => {
    const pid = service.child.pid!;
    // Warm up: the first exports compile the code and let the garbage collector settle on
    // the heap's working size (it grows the heap in steps while garbage accumulates).
    for (let i = 0; i < WARM_UPS; i++)
      assert.deepEqual(await exportIds(events.small), expectedIds('s', SMALL));

    resetPeak(pid);
    const beforeSmall = kb(pid, 'VmRSS');
    assert.deepEqual(
      await exportIds(events.small),
      expectedIds('s', SMALL),
      'every booking once, oldest first',
    );
    const peakSmall = kb(pid, 'VmHWM');

    resetPeak(pid);
    const beforeLarge = kb(pid, 'VmRSS');
    const ids = await exportIds(events.large);
    const peakLarge = kb(pid, 'VmHWM');
    assert.equal(ids.length, LARGE);
    assert.deepEqual(
      ids,
      expectedIds('l', LARGE),
      'every booking once, oldest first (bookings created in the same microsecond by id)',
    );

    const figures = { beforeSmall, peakSmall, beforeLarge, peakLarge, growthKb: peakLarge - peakSmall };
    console.log(`service memory (kB): ${JSON.stringify(figures)}`);
    assert.ok(
      peakLarge - peakSmall <= ALLOWED_GROWTH_KB,
      `the peak grew by ${peakLarge - peakSmall} kB for ${LARGE - SMALL} more rows: ${JSON.stringify(figures)}`,
    );
  });
});
