// A door roster is built page by page in a worker thread (src/modules/checkin/rosters.ts,
// roster-build.ts): meanwhile the event's own lookups are answered by the database, a change made
// while it is being built is in it once it answers, and an event has one build at a time. The
// build is held between pages by the rosters' own hook, so no timing decides anything here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { organiser } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the door roster is built page by page', () => {
  let server: TestServer;
  let org: Awaited<ReturnType<typeof organiser>>;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const rosters = () => server.deps.door.rosters;
  async function lookups(from: 'roster' | 'database'): Promise<number> {
    const values = (await rosters().metrics.lookups.get()).values;
    return values.find((v) => v.labels.from === from)?.value ?? 0;
  }
  const builds = async () =>
    (await rosters().metrics.refreshes.get()).values.find((v) => v.labels.cause === 'build')?.value ?? 0;

  /** An event with a team booking of three and `singles` bookings of one: seven people or more. */
  async function event(
    singles: number,
  ): Promise<{ eventId: string; team: string; member: string; singles: string[] }> {
    const eventId = await createEvent(api, { title: 'Slices', startDate: '2027-02-01', maxTeamSize: 4 });
    const team = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Lead',
      email: `lead-${eventId}@example.in`,
      teamMembers: [
        { name: 'Member one', email: `m1-${eventId}@example.in` },
        { name: 'Member two', email: `m2-${eventId}@example.in` },
      ],
    });
    assert.equal(team.status, 201, team.text);
    const ids: string[] = [];
    for (let i = 0; i < singles; i++) {
      const r = await api('POST', `/api/v1/events/${eventId}/register`, {
        name: `Guest ${i}`,
        email: `g${i}-${eventId}@example.in`,
      });
      assert.equal(r.status, 201, r.text);
      ids.push(r.body.registrationId);
    }
    return { eventId, team: team.body.registrationId, member: team.body.ticketIds[2], singles: ids };
  }
  const look = (eventId: string, value: string) =>
    api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${encodeURIComponent(value)}`);

  /** Holds every build at its `at`-th page until released; counts the pages. */
  function holdAt(at: number) {
    let pages = 0;
    let reached!: () => void;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const go = new Promise<void>((resolve) => (release = resolve));
    rosters().betweenPages = async () => {
      pages++;
      if (pages === at) {
        reached();
        await go;
      }
    };
    return { held, release, pages: () => pages };
  }

  it('answers the event from the database while its roster is half built, and takes in what changed meanwhile', {
    timeout: 60_000,
  }, async () => {
    const e = await event(5);
    await rosters().whenListening();
    rosters().pageRows = 2;
    const hold = holdAt(2);
    try {
      // The first lookup is the database's, and starts the build.
      const first = await look(e.eventId, e.singles[0]!);
      assert.equal(first.status, 200, first.text);
      await hold.held;

      // Half built: the event's lookups go on, answered by the database.
      const [fromDb, fromMemory] = [await lookups('database'), await lookups('roster')];
      const meanwhile = await look(e.eventId, e.member);
      assert.equal(meanwhile.status, 200, meanwhile.text);
      assert.equal(meanwhile.body.data.memberIndex, 2);
      assert.deepEqual(
        [await lookups('database'), await lookups('roster')],
        [fromDb + 1, fromMemory],
        'answered by the database',
      );
      assert.equal(hold.pages(), 2, 'the build waits after its second page');

      // Changed while the build reads an older snapshot: a cancel, and an admit of this instance's own.
      assert.equal(
        (await api('POST', `/api/v1/events/${e.eventId}/registrations/${e.singles[3]}/cancel`)).status,
        200,
      );
      assert.equal(
        (await api('POST', `/api/v1/events/${e.eventId}/check-in`, { registrationId: e.singles[4] })).status,
        201,
      );
    } finally {
      hold.release();
    }
    await rosters().settled();
    // Seven people, two a page: four pages.
    assert.equal(hold.pages(), 4);

    const before = await lookups('roster');
    const cancelled = await look(e.eventId, e.singles[3]!);
    assert.equal(cancelled.body.data.refusalReason, 'cancelled');
    const admitted = await look(e.eventId, e.singles[4]!);
    assert.equal(admitted.body.data.checkedIn, true);
    const team = await look(e.eventId, e.team);
    assert.deepEqual(
      team.body.data.members.map((m: { index: number; name: string }) => [m.index, m.name]),
      [
        [0, 'Lead'],
        [1, 'Member one'],
        [2, 'Member two'],
      ],
      'a booking whose people span two pages is whole',
    );
    assert.equal(await lookups('roster'), before + 3, 'now answered by the roster');
  });

  it('builds one roster per event at a time: a roster dropped while being built is not built again until that build has stopped', {
    timeout: 60_000,
  }, async () => {
    const e = await event(3);
    await rosters().whenListening();
    rosters().pageRows = 2;
    const hold = holdAt(1);
    const started = await builds();
    try {
      assert.equal((await look(e.eventId, e.singles[0]!)).status, 200);
      await hold.held;
      rosters().deleted(e.eventId);
      // A scan now finds the event's build still under way: no second one starts.
      assert.equal((await look(e.eventId, e.singles[1]!)).status, 200);
      assert.deepEqual(rosters().held().includes(e.eventId), false);
      assert.equal(await builds(), started + 1);
    } finally {
      hold.release();
    }
    await rosters().settled();
    assert.equal(
      rosters().held().includes(e.eventId),
      false,
      'the dropped roster’s build stopped without putting it back',
    );
    // The next scan builds it.
    rosters().betweenPages = () => new Promise((resolve) => setImmediate(resolve));
    assert.equal((await look(e.eventId, e.singles[2]!)).status, 200);
    await rosters().settled();
    assert.ok(rosters().held().includes(e.eventId));
    assert.equal(await builds(), started + 2);
  });
});
