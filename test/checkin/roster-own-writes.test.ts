// The door roster and this instance's own admits (rosters.ts `writing`, docs/decisions/15-the-door.md, docs/decisions/22-figures-and-evidence.md):
// while the process's own admitting statement of an event is in flight, the notification of
// its commit is not read from the database (the statement's answer brings the change in), and
// once the statement ends, a change it did not bring is read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, organiser, uniqueEmail } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the door roster and its own instance’s admits', () => {
  let server: TestServer;
  let org: Awaited<ReturnType<typeof organiser>>;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  const rosters = () => server.deps.door.rosters;
  const reads = async () => {
    const values = (await rosters().metrics.refreshes.get()).values;
    return values.filter((v) => v.labels.cause !== 'build').reduce((s, v) => s + v.value, 0);
  };

  it('takes in a notified change of its own statement from the statement’s answer, and reads one it did not bring after the statement ends', async () => {
    const eventId = await createEvent(keyApi(server.url, org.key), {
      title: 'Door',
      startDate: '2027-03-01',
    });
    const booked = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'Guest', email: uniqueEmail('door') },
    });
    assert.equal(booked.status, 201, booked.text);
    const registrationId: string = booked.body.registrationId;
    await rosters().whenListening();
    const look = await call(
      server.url,
      'GET',
      `/api/v1/events/${eventId}/check-in?registrationId=${registrationId}`,
      { key: org.key },
    );
    assert.equal(look.status, 200, look.text);
    await rosters().settled();
    const roster = rosters().current(eventId)!;
    assert.ok(roster, 'built by the first lookup');
    const v = roster.version;
    const before = await reads();

    // The notification of the statement's commit is heard before its answer.
    rosters().writing(eventId, 1);
    rosters().changed(eventId, v + 1);
    await rosters().settled();
    assert.equal(await reads(), before, 'no read while the statement is in flight');
    const at = new Date('2027-03-01T04:00:00Z');
    rosters().wrote(eventId, v + 1, 1, [{ registrationId, idx: 0, at, by: 'key:k1' }]);
    rosters().writing(eventId, -1);
    await rosters().settled();
    assert.equal(await reads(), before, 'the answer brought the change: nothing to read');
    assert.equal(
      rosters().current(eventId)?.hit(registrationId)?.booking.people[0]!.checkedInAt?.getTime(),
      at.getTime(),
    );

    // A change of someone else's, heard while a statement is in flight, is read when it ends.
    rosters().writing(eventId, 1);
    rosters().changed(eventId, v + 2);
    await rosters().settled();
    assert.equal(await reads(), before);
    rosters().writing(eventId, -1);
    await rosters().settled();
    assert.equal(await reads(), before + 1, 'read once the statement ended');
  });
});
