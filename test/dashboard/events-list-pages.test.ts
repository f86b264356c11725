// The dashboard's events list in pages (src/dashboard/pages/events.routes.ts): an organiser with
// thousands of events gets a page of EVENTS_PAGE_SIZE at a time, newest start first, with seats
// taken read for the page in one query, a count of all, and links to the pages before and after;
// a member limited to listed events pages through those only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENTS_PAGE_SIZE } from '../../src/dashboard/views/events.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { organiser } from '../helpers/http.js';
import { addMembers } from '../helpers/roles.js';
import { startServer, type TestServer } from '../helpers/server.js';

const titles = (text: string) =>
  [...text.matchAll(/<a href="\/dashboard\/events\/[^"/]+">(Pager event \d+)<\/a>/g)].map((m) => m[1]);

describe('the dashboard’s events list in pages', () => {
  let server: TestServer;
  let owner: DashboardClient;
  let organisationId: string;
  const ids: string[] = [];
  const total = EVENTS_PAGE_SIZE + 7;
  before(async () => {
    server = await startServer();
    const org = await organiser(server.url);
    organisationId = org.userId;
    const api = keyApi(server.url, org.key);
    // Event i starts on day i: the list's newest start first is the highest number first.
    for (let i = 0; i < total; i++) {
      const day = new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10);
      ids.push(await createEvent(api, { title: `Pager event ${i}`, startDate: day }));
    }
    owner = new DashboardClient(server.url);
    await owner.login(org.email);
  });
  after(() => server?.close());

  it('shows one page at a time, newest start first, with the count and links both ways', async () => {
    const first = await owner.get('/dashboard/events');
    assert.equal(first.status, 200);
    const want = Array.from({ length: total }, (_, i) => `Pager event ${total - 1 - i}`);
    assert.deepEqual(titles(first.text), want.slice(0, EVENTS_PAGE_SIZE));
    assert.match(first.text, new RegExp(`Events 1–${EVENTS_PAGE_SIZE} of ${total}`));
    assert.match(first.text, /<a href="\/dashboard\/events\?page=2" rel="next">/);
    assert.doesNotMatch(first.text, /rel="prev"/);

    const second = await owner.get('/dashboard/events?page=2');
    assert.equal(second.status, 200);
    assert.deepEqual(titles(second.text), want.slice(EVENTS_PAGE_SIZE));
    assert.match(second.text, new RegExp(`Events ${EVENTS_PAGE_SIZE + 1}–${total} of ${total}`));
    assert.match(second.text, /<a href="\/dashboard\/events\?page=1" rel="prev">/);
    assert.doesNotMatch(second.text, /rel="next"/);
  });

  it('answers a page number past the end, or not a page number, with a 400 page, never a 500', async () => {
    for (const q of ['page=3', 'page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=99999999999999999999']) {
      const r = await owner.get(`/dashboard/events?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(r.text, /no such page/i, q);
    }
  });

  it('pages a member limited to listed events through those events only', async () => {
    const listed = [ids[0]!, ids[3]!, ids[total - 1]!];
    const [manager] = await addMembers(server, organisationId, [
      ['event_manager', { role: 'event_manager', eventIds: listed }],
    ]);
    const page = await manager!.dash.get('/dashboard/events');
    assert.equal(page.status, 200);
    assert.deepEqual(titles(page.text), [`Pager event ${total - 1}`, 'Pager event 3', 'Pager event 0']);
    assert.match(page.text, /Events 1–3 of 3/);
    assert.doesNotMatch(page.text, /rel="next"|rel="prev"/);
  });
});
