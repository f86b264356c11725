// Waitlist offers across two service processes on one database: 20 people wait, 5
// cancellations arrive at once on both processes; exactly 5 offers go out, to the first
// 5, each seat held (nobody else can book it). Two offers then lapse and pass to the next
// two. The processes run no workers: a worker instance here, on a ManualClock over the
// same database, sends the mails and lapses the offers when its clock passes their expiry
// (as test/reliability/driver.ts runs jobs and sweeps elsewhere).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { ManualClock } from '../../src/lib/clock.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const shared = {
  SESSION_SECRET: 'waitlist-test-session-secret-0123456789ab',
  SECRETS_KEY: 'waitlist-test-secrets-key-0123456789abcdef',
  ...RAISED_LIMITS,
  EMAIL_DNS_CHECK: 'false',
  WORKERS: 'false',
};

describe('waitlist offers across two processes', () => {
  const procs: ServiceProcess[] = [];
  const dirs: string[] = [];
  let worker: Deps;
  const clock = new ManualClock(new Date());

  before(async () => {
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-wl-'));
      dirs.push(dir);
      const databaseUrl = onPostgres
        ? process.env.TEST_DATABASE_URL
        : i === 0
          ? undefined
          : embeddedDatabaseUrl(dirs[0]!);
      procs.push(
        await startProcess({
          ...shared,
          DATA_DIR: dir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        }),
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-wl-worker-'));
    dirs.push(dir);
    const env = {
      ...shared,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: onPostgres ? process.env.TEST_DATABASE_URL! : embeddedDatabaseUrl(dirs[0]!),
    };
    worker = await createDeps(loadConfig(env), { clock, logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await worker?.close();
    for (const p of [...procs].reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const work = async () => {
    for (let i = 0; i < 100 && (await worker.jobs.runOnce()) > 0; i++);
  };

  it('offers 5 freed seats to exactly the first 5, holds them, and passes 2 lapsed offers to the next 2', async () => {
    const org = await organiser(procs[0]!.url);
    /** The caller at process `i` (of two, in turn). */
    const apiAt = (i: number) => keyApi(procs[i % 2]!.url, org.key);
    const id = await createEvent(apiAt(0), {
      title: 'Race for returns',
      startDate: '2026-12-31',
      capacity: 5,
      waitlist: { enabled: true, offerMinutes: 60 },
    });
    const holders: string[] = [];
    for (let i = 0; i < 5; i++)
      holders.push(
        (
          await apiAt(i)('POST', `/api/v1/events/${id}/register`, {
            name: `H${i}`,
            email: uniqueEmail(`h${i}`),
          })
        ).body.registrationId,
      );
    const people = Array.from({ length: 20 }, (_, i) => ({ name: `W${i}`, email: uniqueEmail(`w${i}`) }));
    for (const [i, p] of people.entries()) {
      const j = await apiAt(i)('POST', `/api/v1/events/${id}/waitlist`, p);
      assert.equal(j.body.position, i + 1, j.text);
    }

    // Five cancellations at once, on both processes, with buyers trying for the seats meanwhile.
    const cancels = holders.map((r, i) => apiAt(i)('POST', `/api/v1/events/${id}/registrations/${r}/cancel`));
    const snipers = Array.from({ length: 10 }, (_, i) =>
      apiAt(i)('POST', `/api/v1/events/${id}/register`, { name: `S${i}`, email: uniqueEmail(`s${i}`) }),
    );
    const [cancelled, sniped] = [await Promise.all(cancels), await Promise.all(snipers)];
    assert.ok(cancelled.every((c) => c.status === 200));
    assert.ok(
      sniped.every((s) => s.status === 409),
      `a freed seat was sold past the waitlist: ${sniped.map((s) => s.status).join(',')}`,
    );
    const list = async () => (await apiAt(1)('GET', `/api/v1/events/${id}/waitlist`)).body.data as any[];
    let entries = await list();
    assert.deepEqual(
      entries.map((e) => e.status),
      [...Array(5).fill('offered'), ...Array(15).fill('waiting')],
      'exactly the first five hold offers',
    );
    let avail = (await apiAt(0)('GET', `/api/v1/events/${id}/availability`)).body.data;
    assert.deepEqual(
      [avail.taken, avail.remaining, avail.waitlist.waiting],
      [5, 0, 15],
      'each offer holds a seat',
    );

    // The worker's clock reads now: the offer mails queued by the processes are due.
    clock.set(new Date());
    await work();
    const mails = (await apiAt(0)('GET', '/api/v1/sandbox/emails?limit=1000')).body.data.filter((m: any) =>
      /held for you/.test(m.subject),
    );
    assert.equal(mails.length, 5, 'one offer mail per offer');
    const tokenFor = (email: string) =>
      /\?offer=([A-Za-z0-9_.-]+)/.exec(mails.find((m: any) => m.to.includes(email)).text)![1]!;

    // Three book from their offers (on both processes) while others still try for a seat.
    const bookings = [0, 1, 2].map((i) =>
      apiAt(i)('POST', `/api/v1/events/${id}/register`, {
        ...people[i],
        waitlistOffer: tokenFor(people[i]!.email),
      }),
    );
    const more = Array.from({ length: 6 }, (_, i) =>
      apiAt(i)('POST', `/api/v1/events/${id}/register`, { name: `T${i}`, email: uniqueEmail(`t${i}`) }),
    );
    assert.ok((await Promise.all(bookings)).every((b) => b.status === 201));
    assert.ok((await Promise.all(more)).every((b) => b.status === 409));

    // The worker's clock passes the other two offers' expiry: they lapse and pass on.
    clock.advance(61 * 60_000);
    await work();
    entries = await list();
    assert.deepEqual(
      entries.map((e) => e.status),
      ['booked', 'booked', 'booked', 'lapsed', 'lapsed', 'offered', 'offered', ...Array(13).fill('waiting')],
    );
    avail = (await apiAt(1)('GET', `/api/v1/events/${id}/availability`)).body.data;
    const regs = (await apiAt(0)('GET', `/api/v1/events/${id}/registrations?limit=100`)).body.data as any[];
    const confirmed = regs.filter((r) => r.status === 'confirmed').length;
    assert.equal(confirmed, 3);
    assert.equal(avail.taken, confirmed + 2, 'seats taken = bookings + held offers');
    assert.ok(avail.taken <= 5, 'nobody oversold');
  });
});
