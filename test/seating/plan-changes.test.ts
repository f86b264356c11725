// Changing a seating plan that events are sold from: a change that would take a booked or held
// seat (removing it, blocking it, moving it to another category) or leave an event with a
// category it has no tier for answers 409 `seating_plan_in_use` and changes nothing; any other
// change refits the events to it (their capacities are its seats).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

type PlanSeat = { id: string; blocked: boolean; category: string };
const grid = { sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 4, category: ['Gold', 'Silver'] }] };

describe('changing a seating plan that events are sold from', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
  });
  after(async () => server.close());

  /** A plan and an event sold from it. */
  const planAndEvent = async () => {
    const plan = (await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid })).body.data;
    const event = await createEventData(api, {
      seatingPlanId: plan.id,
      specialPrices: [
        { name: 'Gold', price: 0 },
        { name: 'Silver', price: 0 },
      ],
    });
    return { plan, event };
  };
  const edit = (
    plan: { id: string; seats: PlanSeat[]; stage: unknown },
    f: (s: PlanSeat) => PlanSeat | null,
  ) =>
    api('PUT', `/api/v1/seating-plans/${plan.id}`, {
      layout: { seats: plan.seats.map(f).filter((s) => s !== null), stage: plan.stage },
    });
  const capacities = async (eventId: string) => {
    const e = (await api('GET', `/api/v1/events/${eventId}`)).body.data;
    return [
      e.capacity,
      ...e.specialPrices.map((t: { name: string; capacity: number }) => `${t.name} ${t.capacity}`),
    ];
  };

  it('refuses to block, remove or recategorise a booked or held seat, and changes nothing', async () => {
    const { plan, event } = await planAndEvent();
    const hold = (seats: string[]) => api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats });
    const booked = await hold(['Stalls-A-1']);
    const r = await api('POST', `/api/v1/events/${event.id}/register`, {
      name: 'Asha',
      email: uniqueEmail('asha'),
      holdToken: booked.body.data.holdToken,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal((await hold(['Stalls-B-2'])).status, 201);
    const refusals: [string, (s: PlanSeat) => PlanSeat | null][] = [
      ['block the booked seat', (s) => (s.id === 'Stalls-A-1' ? { ...s, blocked: true } : s)],
      ['remove the booked seat', (s) => (s.id === 'Stalls-A-1' ? null : s)],
      ['move the held seat to Gold', (s) => (s.id === 'Stalls-B-2' ? { ...s, category: 'Gold' } : s)],
      ['block the held seat', (s) => (s.id === 'Stalls-B-2' ? { ...s, blocked: true } : s)],
    ];
    for (const [what, change] of refusals) {
      const res = await edit(plan, change);
      assert.deepEqual([res.status, res.body.code], [409, 'seating_plan_in_use'], what);
    }
    const read = (await api('GET', `/api/v1/seating-plans/${plan.id}`)).body.data;
    assert.deepEqual(read.seats, plan.seats, 'the plan is as it was');
    assert.deepEqual(await capacities(event.id), [8, 'Gold 4', 'Silver 4']);
  });

  it('refuses a change that leaves the event a category it has no tier for', async () => {
    const { plan, event } = await planAndEvent();
    const res = await edit(plan, (s) => (s.category === 'Silver' ? { ...s, category: 'Bronze' } : s));
    assert.deepEqual([res.status, res.body.code], [409, 'seating_plan_in_use']);
    assert.match(res.body.error, new RegExp(event.id));
  });

  it('refits the events to any other change: blocking a free seat takes it from the capacities', async () => {
    const { plan, event } = await planAndEvent();
    const res = await edit(plan, (s) =>
      s.id === 'Stalls-A-4' || s.id === 'Stalls-B-4' ? { ...s, blocked: true } : s,
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await capacities(event.id), [6, 'Gold 3', 'Silver 3']);
    const blocked = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-4'] });
    assert.deepEqual([blocked.status, blocked.body.code], [409, 'seats_unavailable']);
    const released = await edit(res.body.data, (s) => ({ ...s, blocked: false }));
    assert.equal(released.status, 200, released.text);
    assert.deepEqual(await capacities(event.id), [8, 'Gold 4', 'Silver 4']);
  });

  it('a lapsed hold does not keep its seat from a change (the sandbox clock)', async () => {
    const { plan, event } = await planAndEvent();
    const held = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-2'] });
    assert.equal(held.status, 201, held.text);
    await api('POST', '/api/v1/sandbox/clock', { advanceDays: 11 / (24 * 60) });
    try {
      const res = await edit(plan, (s) => (s.id === 'Stalls-A-2' ? { ...s, blocked: true } : s));
      assert.equal(res.status, 200, res.text);
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
  });

  it('keeps an event on its plan while any of its seats is booked or held', async () => {
    const { event } = await planAndEvent();
    const other = (await api('POST', '/api/v1/seating-plans', { name: 'Other hall', grid })).body.data;
    const held = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-1'] });
    assert.equal(held.status, 201, held.text);
    for (const seatingPlanId of [other.id, null]) {
      const r = await api('PATCH', `/api/v1/events/${event.id}`, { seatingPlanId });
      assert.deepEqual([r.status, r.body.code], [409, 'seating_plan_in_use'], String(seatingPlanId));
    }
    await api('DELETE', `/api/v1/events/${event.id}/seats/hold/${held.body.data.holdToken}`);
    const moved = await api('PATCH', `/api/v1/events/${event.id}`, { seatingPlanId: other.id });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.data.seatingPlanId, other.id);
  });
});
