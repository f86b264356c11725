// A track is a session with its own time (docs/decisions/28-a-persons-day.md): `startsAt`/`endsAt` on
// tracks (`date` still accepted), and a Day 2 booking of a two-day event says Day 2 with its
// end everywhere it is shown: the attendee page, the ticket mail, the confirmation's ticket,
// the .ics and Google Calendar link, and the self-service cutoff (which follows Day 2's start).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import { formToken } from '../../src/modules/attendee/attendee.service.js';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY1 = { title: 'Day 1', startsAt: '2026-12-20T18:30+05:30', endsAt: '2026-12-20T21:00+05:30' };
const DAY2 = { title: 'Day 2', startsAt: '2026-12-21T18:30+05:30', endsAt: '2026-12-21T21:00+05:30' };
const DAY2_WORDS = 'Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST';
/** Day 2 in UTC, as calendars write it: 13:00 to 15:30. */
const DAY2_GOOGLE = '20261221T130000Z/20261221T153000Z';

describe('sessions with their own time', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  let ev: { id: string; slug: string };

  before(async () => {
    server = await startServer();
    server.clock.set(new Date('2026-12-01T00:00:00Z'));
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    const created = await api('POST', '/api/v1/events', {
      title: 'Two-day fest',
      description: 'x',
      startDate: '2026-12-20T18:30+05:30',
      endDate: '2026-12-21T21:00+05:30',
      location: 'Bengaluru',
      // The names tracks had before `startsAt`/`endsAt`: still accepted.
      tracks: [DAY1, DAY2].map((t) => ({ title: t.title, date: t.startsAt, endDate: t.endsAt })),
      selfService: { cancel: true, cutoffHours: 2 },
    });
    assert.equal(created.status, 201, created.text);
    ev = created.body.data;
    assert.equal((await api('PATCH', `/api/v1/events/${ev.id}`, { status: 'published' })).status, 200);
  });
  after(async () => server.close());

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const token = (id: string) => attendeeToken(server.deps.config.secretsKey, id, id);
  const page = async (t: string) => {
    const r = await fetch(`${server.url}/t/${t}`);
    return { status: r.status, html: (await r.text()).replace(/&#39;|&#x27;/g, "'").replace(/&amp;/g, '&') };
  };
  async function book(trackIndex: number): Promise<string> {
    const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
      name: `Day ${trackIndex + 1} guest`,
      email: uniqueEmail('guest'),
      subEventId: String(trackIndex),
    });
    assert.equal(r.status, 201, r.text);
    return r.body.registrationId as string;
  }

  it('stores startsAt and endsAt on tracks and returns them; `date` stays accepted and maps onto them', async () => {
    const tracks = (await api('GET', `/api/v1/events/${ev.id}/tracks`)).body.data;
    assert.deepEqual(
      tracks.map((t: any) => [t.title, t.startsAt, t.endsAt, t.date, t.endDate]),
      [
        ['Day 1', DAY1.startsAt, DAY1.endsAt, DAY1.startsAt, DAY1.endsAt],
        ['Day 2', DAY2.startsAt, DAY2.endsAt, DAY2.startsAt, DAY2.endsAt],
      ],
    );
    const byDate = await api('POST', `/api/v1/events/${ev.id}/tracks`, {
      title: 'New style',
      startsAt: '2026-12-21T10:00+05:30',
      endsAt: '2026-12-21T12:00+05:30',
    });
    assert.equal(byDate.status, 201, byDate.text);
    assert.deepEqual(
      [byDate.body.data.date, byDate.body.data.endDate, byDate.body.data.startsAt, byDate.body.data.endsAt],
      [
        '2026-12-21T10:00+05:30',
        '2026-12-21T12:00+05:30',
        '2026-12-21T10:00+05:30',
        '2026-12-21T12:00+05:30',
      ],
    );
    const day = await api('PATCH', `/api/v1/events/${ev.id}/tracks/${byDate.body.data.index}`, {
      date: '2026-12-21',
      endDate: null,
    });
    assert.equal(day.status, 200, day.text);
    assert.deepEqual(
      [day.body.data.date, day.body.data.startsAt, day.body.data.endsAt],
      ['2026-12-21', null, null],
      'a bare day has no times',
    );
    const moved = await api('PATCH', `/api/v1/events/${ev.id}/tracks/${byDate.body.data.index}`, {
      startsAt: '2026-12-21T11:00:00+05:30',
      endsAt: '2026-12-21T13:00:00+05:30',
    });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(
      [moved.body.data.date, moved.body.data.startsAt, moved.body.data.endsAt],
      ['2026-12-21T11:00:00+05:30', '2026-12-21T11:00:00+05:30', '2026-12-21T13:00:00+05:30'],
    );
    const inherited = await api('POST', `/api/v1/events/${ev.id}/tracks`, { title: 'All of it' });
    assert.deepEqual(
      [inherited.body.data.startsAt, inherited.body.data.endsAt],
      ['2026-12-20T18:30+05:30', '2026-12-21T21:00+05:30'],
      'a track without times runs as the event does',
    );
    // Remove the two extra tracks again (nobody booked them).
    for (const i of [inherited.body.data.index, byDate.body.data.index])
      assert.equal((await api('DELETE', `/api/v1/events/${ev.id}/tracks/${i}`)).status, 200);
  });

  it('refuses bad session times with 400 { error, code }', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x', startsAt: '2026-12-21' }, 'invalid_date'],
      [{ title: 'x', startsAt: '2026-12-21T18:30' }, 'invalid_date'],
      [{ title: 'x', startsAt: '2026-12-21T18:30+05:30', endsAt: '2026-12-21T18:00+05:30' }, 'invalid_date'],
      [
        { title: 'x', startsAt: '2026-12-21T18:30+05:30', date: '2026-12-22T18:30+05:30' },
        'conflicting_fields',
      ],
      [{ title: 'x', endsAt: 'soon' }, 'invalid_date'],
    ];
    for (const [body, code] of cases) {
      const r = await api('POST', `/api/v1/events/${ev.id}/tracks`, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.code, code, JSON.stringify(body));
      assert.equal(typeof r.body.error, 'string');
    }
    assert.equal((await api('GET', `/api/v1/events/${ev.id}/tracks`)).body.count, 2, 'nothing was added');
  });

  it('a Day 2 ticket says Day 2 with its end on the attendee page, in the mail, the confirmation, the .ics and the Google link', async () => {
    const id = await book(1);
    const t = token(id);

    const shown = await page(t);
    assert.equal(shown.status, 200);
    assert.ok(shown.html.includes(DAY2_WORDS), 'the attendee page says Day 2 with its end in words');
    assert.doesNotMatch(shown.html, /2026-12-2\dT/, 'no ISO text');
    assert.doesNotMatch(shown.html, /20 Dec/, 'nothing of Day 1');
    const google = new URL(/href="(https:\/\/calendar\.google\.com[^"]+)"/.exec(shown.html)![1]!);
    assert.equal(google.searchParams.get('dates'), DAY2_GOOGLE);
    assert.ok(
      shown.html.includes('You can change this booking here until Mon 21 Dec 2026, 4:30 pm IST'),
      'the cutoff follows Day 2’s start',
    );

    // The confirmation on the hosted page.
    const view = await call(server.url, 'GET', `/e/${ev.slug}/tickets/${t}?key=${pk}`);
    assert.equal(view.status, 200, view.text);
    assert.equal(view.body.ticket.event.when, DAY2_WORDS);
    assert.equal(view.body.ticket.session, 'Day 2');
    assert.equal(new URL(view.body.ticket.googleCalendarUrl).searchParams.get('dates'), DAY2_GOOGLE);
    const ics = await call(server.url, 'GET', `${view.body.ticket.calendarUrl}?key=${pk}`);
    assert.equal(ics.status, 200, ics.text);
    const entry = new ICAL.Event(new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!);
    assert.equal(entry.startDate.toJSDate().toISOString(), '2026-12-21T13:00:00.000Z');
    assert.equal(
      entry.endDate.toJSDate().toISOString(),
      '2026-12-21T15:30:00.000Z',
      'the track’s end, not an hour later',
    );

    // The ticket mail, as test mode keeps it.
    for (let i = 0; i < 50 && (await server.deps.jobs.runOnce()) > 0; i++);
    const mails = (await api('GET', '/api/v1/sandbox/emails')).body.data as {
      subject: string;
      text: string;
    }[];
    const mail = mails.find((m) => m.subject.startsWith('Your ticket') && m.text.includes(id));
    assert.ok(mail, 'the ticket mail was kept');
    assert.ok(mail!.text.includes(`Date: ${DAY2_WORDS}`), mail!.text);
    assert.ok(mail!.text.includes('Ticket: General · Day 2'), mail!.text);
    const mailGoogle = new URL(/Google Calendar: (\S+)/.exec(mail!.text)![1]!);
    assert.equal(mailGoogle.searchParams.get('dates'), DAY2_GOOGLE);
    assert.doesNotMatch(mail!.text, /20 Dec/);
  });

  it('the self-service cutoff is each session’s own: on Day 2’s morning a Day 1 ticket is closed and a Day 2 ticket still open', async () => {
    const [day1, day2] = [await book(0), await book(1)];
    server.clock.set(new Date('2026-12-21T05:00:00Z')); // 10:30 am IST on 21 Dec
    try {
      const one = await page(token(day1));
      assert.ok(
        one.html.includes('Changes from this page closed at Sun 20 Dec 2026, 4:30 pm IST'),
        'Day 1 closed two hours before its own start',
      );
      const two = await page(token(day2));
      assert.match(two.html, /id="cancel-submit"/, 'Day 2 can still be cancelled');
      const csrf = /action="\/t\/[^"]+\/cancel">\s*<input type="hidden" name="csrf" value="([^"]+)"/.exec(
        two.html,
      )![1]!;
      const refused = await fetch(`${server.url}/t/${token(day1)}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams({
          csrf: formToken(server.deps.config.secretsKey, token(day1), 'cancel'),
          confirm: 'yes',
        }).toString(),
      });
      assert.equal(refused.status, 409, 'Day 1 is past its cutoff');
      assert.match(
        await refused.text(),
        /cancellations closed 2 hours before the session started \(at Sun 20 Dec 2026, 4:30 pm IST\)/,
      );
      const cancelled = await fetch(`${server.url}/t/${token(day2)}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams({ csrf, confirm: 'yes' }).toString(),
      });
      assert.equal(cancelled.status, 200, await cancelled.text());
      assert.equal(
        (await api('GET', `/api/v1/events/${ev.id}/registrations/${day2}`)).body.data.status,
        'cancelled',
      );
    } finally {
      server.clock.set(new Date('2026-12-01T00:00:00Z'));
    }
  });
});
