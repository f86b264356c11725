// The read pool on a real streaming replica (src/db/read-pool.ts): a primary and a standby made by
// pg_basebackup -R, the service on the primary with DATABASE_READ_URL on the standby. The reports
// (the registrations export, analytics, the GSTR-1 summary, the audit log) read the standby and say how far behind it
// is (`X-Replica-Lag`); with the standby's replay paused they miss a new booking and the lag
// grows, while booking, which decides, reads the primary: the last seat is sold once, and the
// next buyer is refused, whatever the standby shows. Resumed, the reports catch up. The clusters
// are the check's own, so it runs on the embedded pass only.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createEvent, keyApi, paidBooking, type Api } from '../helpers/factories.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import {
  findToolset,
  initdb,
  type RunningCluster,
  runAs,
  runTool,
  serverDir,
  startCluster,
} from '../helpers/pg-cluster.js';
import { startServer, type TestServer } from '../helpers/server.js';

const tools = findToolset();
const skip =
  process.env.TEST_DB === 'postgres'
    ? 'makes clusters of its own: the embedded pass runs it'
    : tools === undefined
      ? 'needs a PostgreSQL installation with pg_basebackup (PG_BINDIR or pg_config on the PATH)'
      : false;

/** Polls `check` until it holds, for at most 30 s (replication takes its time; nothing here races it). */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${what} within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('reports read from a streaming replica', { skip, timeout: 180_000 }, () => {
  let root: string;
  let primary: RunningCluster;
  let standby: RunningCluster;
  let service: TestServer;
  let api: Api;

  before(async () => {
    const as = runAs();
    root = mkdtempSync(join(tmpdir(), 'svc-replica-'));
    chmodSync(root, 0o711);
    const work = serverDir(join(root, 'work'), as);
    await initdb(tools!, join(work, 'primary'));
    primary = await startCluster(tools!, join(work, 'primary'), { wal_level: 'replica' });
    await runTool(tools!, 'pg_basebackup', [
      '-D',
      join(work, 'standby'),
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '-d',
      primary.url,
    ]);
    standby = await startCluster(
      tools!,
      join(work, 'standby'),
      { hot_standby: 'on' },
      'select pg_is_in_recovery() as ok',
    );
    service = await startServer({ env: { DATABASE_URL: primary.url, DATABASE_READ_URL: standby.url } });
    api = keyApi(service.url, (await organiser(service.url)).key);
  });
  after(async () => {
    await service?.close();
    await standby?.stop();
    await primary?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const book = (eventId: string) =>
    api('POST', `/api/v1/events/${eventId}/register`, { name: 'Asha', email: uniqueEmail('asha') });
  // The lag is measured at most once a second by the service clock: each read moves it on a second.
  const exported = async (eventId: string) => {
    service.clock.advance(1_000);
    const r = await api('GET', `/api/v1/events/${eventId}/registrations/export`);
    assert.equal(r.status, 200, r.text);
    return { text: r.text, lag: r.headers.get('x-replica-lag') };
  };
  const confirmed = async (eventId: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/analytics`);
    assert.equal(r.status, 200, r.text);
    return r.body.confirmedCount as number;
  };

  it('reports lag behind a paused replica while booking decides on the primary, then catch up', async () => {
    const eventId = await createEvent(api, { capacity: 2 });
    const first = await book(eventId);
    assert.equal(first.status, 201, first.text);
    await until('the first booking reaches the export', async () =>
      (await exported(eventId)).text.includes(first.body.registrationId),
    );
    assert.match((await exported(eventId)).lag ?? '', /^\d+\.\d{3}$/, 'the export says its lag');

    await standby.query('select pg_wal_replay_pause()');
    const second = await book(eventId);
    assert.equal(second.status, 201, 'the last seat, sold on the primary');
    const third = await book(eventId);
    assert.equal(third.status, 409, 'sold out on the primary, whatever the replica shows');
    await until('the lag shows', async () => Number((await exported(eventId)).lag) > 0);
    const paused = await exported(eventId);
    assert.ok(!paused.text.includes(second.body.registrationId), 'the paused replica has not the second');
    assert.equal(await confirmed(eventId), 1, 'analytics read the replica');
    service.clock.advance(1_000);
    const audit = await api('GET', `/api/v1/audit-log?targetId=${second.body.registrationId}`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.data.length, 0, 'the audit log read the replica');
    assert.ok(Number(audit.headers.get('x-replica-lag')) > 0);

    await standby.query('select pg_wal_replay_resume()');
    await until('the reports catch up', async () => {
      const now = await exported(eventId);
      return now.text.includes(second.body.registrationId) && Number(now.lag) === 0;
    });
    assert.equal(await confirmed(eventId), 2);
  });

  it('the GSTR-1 summary reads the replica: a paused standby misses a new invoice and says its lag', async () => {
    const settings = await api('PUT', '/api/v1/gst/settings', {
      legalName: 'Replica Org LLP',
      address: 'Bengaluru',
      gstin: '29AAGCR4375J1ZU',
    });
    assert.equal(settings.status, 200, settings.text);
    const eventId = await createEvent(api, { price: 500, capacity: 10 });
    const first = await paidBooking(api, eventId);
    const invoice = await api(
      'GET',
      `/api/v1/events/${eventId}/registrations/${first.registrationId}/invoice`,
    );
    assert.equal(invoice.status, 200, invoice.text);
    const month = (invoice.body.data.date as string).slice(0, 7);
    const invoices = async () => {
      service.clock.advance(1_000);
      const r = await api('GET', `/api/v1/gst/gstr1?month=${month}`);
      assert.equal(r.status, 200, r.text);
      const count = (r.body.data.suppliers as { documents: { issued: number }[] }[])
        .flatMap((x) => x.documents)
        .reduce((n, d) => n + d.issued, 0);
      return { count, lag: r.headers.get('x-replica-lag') };
    };
    await until('the first invoice reaches the summary', async () => (await invoices()).count === 1);

    await standby.query('select pg_wal_replay_pause()');
    await paidBooking(api, eventId);
    await until('the lag shows', async () => Number((await invoices()).lag) > 0);
    assert.equal((await invoices()).count, 1, 'the paused replica has not the second invoice');

    await standby.query('select pg_wal_replay_resume()');
    await until('the summary catches up', async () => {
      const now = await invoices();
      return now.count === 2 && Number(now.lag) === 0;
    });
  });
});
