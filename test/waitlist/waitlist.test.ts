// The waitlist on one service: joining only when sold out, a freed seat offered to the
// first in line and held (nobody else can book it), booking from the offer, an offer
// lapsing on the clock and passing on, the organiser's queue and removal, the webhook.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { runJobs as runJobsOf } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { DashboardClient } from '../helpers/dashboard.js';

describe('waitlist with timed offers', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer({ env: { WORKERS: 'false' } });
    org = await organiser(server.url);
  });
  after(async () => server.close());

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const offerMails = async (email: string) => {
    const r = await api('GET', '/api/v1/sandbox/emails?limit=1000');
    return (r.body.data as any[]).filter((m) => m.to.includes(email) && /held for you/.test(m.subject));
  };
  const offerToken = (mail: any) => /\?offer=([A-Za-z0-9_.-]+)/.exec(mail.text)![1]!;
  const entries = async (eventId: string) =>
    (await api('GET', `/api/v1/events/${eventId}/waitlist`)).body.data as any[];
  /** Runs the jobs due by the server's clock. */
  const runJobs = () => runJobsOf(server, { due: true });

  it('takes names only when sold out, offers a freed seat to the first in line and holds it, and passes a lapsed offer on', async () => {
    // fixture-exception: the creation's answer carrying the waitlist policy is checked here
    const created = await api('POST', '/api/v1/events', {
      title: 'Waitlisted',
      description: 'x',
      startDate: '2026-12-31',
      capacity: 2,
      waitlist: { enabled: true, offerMinutes: 30 },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data.waitlist, { enabled: true, offerMinutes: 30 });
    const id = created.body.data.id as string;
    const early = await api('POST', `/api/v1/events/${id}/waitlist`, {
      name: 'Too early',
      email: uniqueEmail('early'),
    });
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'seats_available');
    const holders = [];
    for (let i = 0; i < 2; i++)
      holders.push(
        (await api('POST', `/api/v1/events/${id}/register`, { name: `H${i}`, email: uniqueEmail(`h${i}`) }))
          .body.registrationId as string,
      );
    const people = [0, 1, 2].map((i) => ({ name: `W${i}`, email: uniqueEmail(`w${i}`) }));
    for (const [i, p] of people.entries()) {
      const j = await api('POST', `/api/v1/events/${id}/waitlist`, p);
      assert.equal(j.status, 201, j.text);
      assert.deepEqual(
        j.body,
        { success: true, status: 'waiting', position: i + 1 },
        'nothing personal comes back',
      );
    }
    const again = await api('POST', `/api/v1/events/${id}/waitlist`, people[0]);
    assert.equal(again.body.position, 1, 'joining twice keeps the first place');
    let avail = (await api('GET', `/api/v1/events/${id}/availability`)).body.data;
    assert.equal(avail.waitlist.waiting, 3);

    // A cancellation frees a seat: W0 holds it, nobody else can book it.
    assert.equal((await api('POST', `/api/v1/events/${id}/registrations/${holders[0]}/cancel`)).status, 200);
    avail = (await api('GET', `/api/v1/events/${id}/availability`)).body.data;
    assert.deepEqual(
      [avail.taken, avail.remaining, avail.waitlist.waiting],
      [2, 0, 2],
      'the held seat counts as taken',
    );
    const sniper = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'Sniper',
      email: uniqueEmail('sniper'),
    });
    assert.equal(sniper.status, 409, 'a held seat is not sold to someone else');
    await runJobs();
    const [mail0] = await offerMails(people[0]!.email);
    assert.ok(mail0, 'the first in line got the offer mail');
    const booked = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'W0',
      email: people[0]!.email,
      waitlistOffer: offerToken(mail0),
    });
    assert.equal(booked.status, 201, booked.text);
    const reused = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'W0 again',
      email: people[0]!.email,
      waitlistOffer: offerToken(mail0),
    });
    assert.equal(reused.body.code, 'offer_not_valid', 'an offer books once');

    // The next cancellation goes to W1, whose offer lapses; it passes to W2.
    assert.equal((await api('POST', `/api/v1/events/${id}/registrations/${holders[1]}/cancel`)).status, 200);
    await runJobs();
    const [mail1] = await offerMails(people[1]!.email);
    assert.ok(mail1);
    server.clock.advance(31 * 60_000);
    await runJobs();
    const after = await entries(id);
    assert.deepEqual(
      after.map((e) => e.status),
      ['booked', 'lapsed', 'offered'],
    );
    const late = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'W1',
      email: people[1]!.email,
      waitlistOffer: offerToken(mail1),
    });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'offer_not_valid');
    assert.equal(
      (await offerMails(people[2]!.email)).length,
      1,
      'the lapsed offer passed to the next in line',
    );

    // The organiser removes W2: the held seat comes back, nobody waits for it.
    const removed = await api('DELETE', `/api/v1/events/${id}/waitlist/${after[2].id}`);
    assert.equal(removed.status, 200, removed.text);
    avail = (await api('GET', `/api/v1/events/${id}/availability`)).body.data;
    assert.deepEqual([avail.taken, avail.remaining], [1, 1]);
  });

  it('offers seats a raised capacity adds, and a track waits on its own', async () => {
    const id = await createEvent(api, {
      title: 'Tracks wait',
      startDate: '2026-12-31',
      tracks: [{ title: 'Workshop', capacity: 1, waitlist: { enabled: true, offerMinutes: 10 } }],
    });
    assert.equal(
      (
        await api('POST', `/api/v1/events/${id}/register`, {
          name: 'A',
          email: uniqueEmail('a'),
          subEventId: '0',
        })
      ).status,
      201,
    );
    const closed = await api('POST', `/api/v1/events/${id}/waitlist`, { name: 'E', email: uniqueEmail('e') });
    assert.equal(closed.body.code, 'waitlist_closed', 'only the track takes a waitlist');
    const w = await api('POST', `/api/v1/events/${id}/waitlist`, {
      name: 'T',
      email: uniqueEmail('t'),
      subEventId: '0',
    });
    assert.equal(w.status, 201, w.text);
    assert.equal(
      (await api('GET', `/api/v1/events/${id}/availability?subEventId=0`)).body.data.waitlist.waiting,
      1,
    );
    const raised = await api('PATCH', `/api/v1/events/${id}/tracks/0`, { capacity: 2 });
    assert.equal(raised.status, 200, raised.text);
    const list = await entries(id);
    assert.equal(list[0].status, 'offered', 'the added seat went to the track’s waitlist');
    assert.equal((await api('GET', `/api/v1/events/${id}/availability?subEventId=0`)).body.data.remaining, 0);
  });

  it('shows the organiser the queue and the policy settings in the dashboard, and removes an entry', async () => {
    const id = await createEvent(api, {
      title: 'Dash queue',
      startDate: '2026-12-31',
      capacity: 1,
      waitlist: { enabled: true },
    });
    await api('POST', `/api/v1/events/${id}/register`, { name: 'Holder', email: uniqueEmail('holder') });
    await api('POST', `/api/v1/events/${id}/waitlist`, {
      name: 'Queued <i>Person</i>',
      email: uniqueEmail('queued'),
    });
    const c = new DashboardClient(server.url);
    const login = await c.get('/dashboard/login');
    assert.equal(
      (
        await c.post('/dashboard/login', {
          _csrf: DashboardClient.csrf(login.text),
          email: org.email,
          password: 'correct horse battery',
        })
      ).status,
      303,
    );
    const screen = await c.get(`/dashboard/events/${id}/waitlist`);
    assert.equal(screen.status, 200, screen.text.slice(0, 300));
    assert.match(screen.text, /Queued &lt;i&gt;Person&lt;\/i&gt;/);
    assert.match(screen.text, /Attendees may transfer their ticket/);
    const csrf = DashboardClient.csrf(screen.text);
    const saved = await c.post(`/dashboard/events/${id}/waitlist/settings`, {
      _csrf: csrf,
      waitlistEnabled: 'on',
      offerMinutes: '45',
      transfer: 'on',
      cutoffHours: '12',
      refund: 'fee',
      feePercent: '7.5',
    });
    assert.equal(saved.status, 303, saved.text.slice(0, 300));
    const ev = (await api('GET', `/api/v1/events/${id}`)).body.data;
    assert.deepEqual(
      [ev.waitlist, ev.selfService],
      [
        { enabled: true, offerMinutes: 45 },
        { transfer: true, cancel: false, cutoffHours: 12, refund: { feePercent: 7.5 } },
      ],
    );
    const entry = (await entries(id))[0];
    assert.equal(
      (await c.post(`/dashboard/events/${id}/waitlist/${entry.id}/remove`, { _csrf: csrf })).status,
      303,
    );
    assert.equal((await entries(id))[0].status, 'removed');
  });
});
