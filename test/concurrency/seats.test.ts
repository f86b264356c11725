// Hundreds of concurrent registrations at the last seats, through two service
// processes on one PostgreSQL server: nobody is sold a seat that does not exist. On the
// embedded pass the first process runs the embedded server and the second reaches it
// through its socket; on the PostgreSQL pass both use TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { call, organiser, uniqueEmail } from '../helpers/http.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';

describe('seats under concurrency across two processes', () => {
  const procs: ServiceProcess[] = [];
  const dirs: string[] = [];

  before(async () => {
    // Both processes must sign sessions alike and share the database.
    const shared = {
      SESSION_SECRET: 'concurrency-test-session-secret-0123456789',
      SECRETS_KEY: 'concurrency-test-secrets-key-0123456789abcd',
      ...RAISED_LIMITS,
      EMAIL_DNS_CHECK: 'false',
      WORKERS: 'false',
    };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-conc-'));
      dirs.push(dir);
      const databaseUrl = onPostgres
        ? process.env.TEST_DATABASE_URL
        : i === 0
          ? undefined
          : embeddedDatabaseUrl(dirs[0]!);
      if (onPostgres && !databaseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
      procs.push(
        await startProcess({
          ...shared,
          DATA_DIR: dir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        }),
      );
    }
  });
  after(async () => {
    // The process that runs the embedded server stops last.
    for (const p of [...procs].reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function fire(eventId: string, key: string, n: number, body: (i: number) => Record<string, unknown>) {
    return Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(procs[i % 2]!.url, 'POST', `/api/v1/events/${eventId}/register`, {
          key,
          body: { name: `P${i}`, email: uniqueEmail(`c${i}`), ...body(i) },
        }),
      ),
    );
  }

  const newEvent = (key: string, body: Record<string, unknown>) =>
    createEvent(keyApi(procs[0]!.url, key), { startDate: '2026-12-31', ...body });

  it('sells exactly the capacity of the event, of a tier and of a track, and refuses the rest with 409', async () => {
    const org = await organiser(procs[0]!.url);
    const eventId = await newEvent(org.key, {
      title: 'Ticket drop',
      description: 'Last seats',
      capacity: 40,
      specialPrices: [{ name: 'Front row', price: 0, capacity: 7 }],
      tracks: [{ title: 'Workshop', capacity: 5 }],
    });
    // Three crowds at once: general, the tier and the track, 360 requests for 40 seats.
    const answers = await fire(eventId, org.key, 360, (i) =>
      i % 3 === 1 ? { ticketType: 'Front row' } : i % 3 === 2 ? { subEventId: '0' } : {},
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      `unexpected statuses: ${[...new Set(statuses)].join(',')}`,
    );
    const byKind = (k: number) => answers.filter((a, i) => i % 3 === k && a.status === 201).length;
    // Which crowd got the event's last seats depends on timing; the limits never bend.
    assert.ok(byKind(1) <= 7, `the tier sold ${byKind(1)} of 7`);
    assert.ok(byKind(2) <= 5, `the track sold ${byKind(2)} of 5`);
    assert.equal(byKind(0) + byKind(1) + byKind(2), 40, 'the event sold exactly its capacity');

    const list = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/registrations`, {
      key: org.key,
    });
    const confirmed = list.body.data.filter((r: any) => r.status === 'confirmed');
    assert.equal(confirmed.length, 40);
    assert.equal(list.body.count, 40, 'refused registrations leave nothing behind');
    const a = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/availability`, { key: org.key });
    assert.deepEqual([a.body.data.taken, a.body.data.remaining, a.body.data.soldOut], [40, 0, true]);
  });

  it('sells exactly a tier’s and a track’s capacity when the event itself is unlimited', async () => {
    const org = await organiser(procs[0]!.url);
    const eventId = await newEvent(org.key, {
      title: 'Tier drop',
      specialPrices: [{ name: 'Front row', price: 0, capacity: 7 }],
      tracks: [{ title: 'Workshop', capacity: 5 }],
    });
    const answers = await fire(eventId, org.key, 240, (i) =>
      i % 2 === 0 ? { ticketType: 'Front row' } : { subEventId: '0' },
    );
    assert.equal(answers.filter((a, i) => i % 2 === 0 && a.status === 201).length, 7);
    assert.equal(answers.filter((a, i) => i % 2 === 1 && a.status === 201).length, 5);
    assert.ok(answers.every((a) => a.status === 201 || a.status === 409));
  });

  it('sells teams and singles racing for the last seats without overselling, every seat held by a stored ticket', async () => {
    // Free bookings of one counter that queue behind each other are written together
    // (free-bookings.ts); a group that does not fit whole is written one by one.
    const org = await organiser(procs[0]!.url);
    const eventId = await newEvent(org.key, { title: 'Team drop', capacity: 41, maxTeamSize: 3 });
    const size = (i: number) => 1 + (i % 3);
    const answers = await fire(eventId, org.key, 300, (i) => ({
      teamMembers: Array.from({ length: size(i) - 1 }, (_, m) => ({
        name: `M${i}.${m}`,
        email: uniqueEmail(`t${i}m${m}`),
      })),
    }));
    assert.ok(
      answers.every((a) => a.status === 201 || a.status === 409),
      `unexpected statuses: ${[...new Set(answers.map((a) => a.status))].join(',')}`,
    );
    const sold = answers.reduce((n, a, i) => n + (a.status === 201 ? size(i) : 0), 0);
    assert.ok(sold <= 41, `sold ${sold} seats of 41`);
    assert.ok(sold >= 39, `only ${sold} of 41 seats sold while singles were still asking`);
    const list = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/registrations?limit=100`, {
      key: org.key,
    });
    assert.equal(
      list.body.count,
      answers.filter((a) => a.status === 201).length,
      'one stored booking per acknowledgement, none for a refusal',
    );
    const tickets = list.body.data.reduce((n: number, r: any) => n + 1 + r.teamMembers.length, 0);
    assert.equal(tickets, sold, 'every seat sold is a stored ticket');
    const a = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/availability`, { key: org.key });
    assert.equal(a.body.data.taken, sold, 'the seat counter agrees with the tickets');
  });

  it('books many events at once, some selling out, each booking getting its own event’s answer and none oversold', async () => {
    // Free bookings of different events that queue behind a statement in flight are written
    // together, each claiming its own counter (free-bookings.ts): a full event refuses only its
    // own bookings, and the two processes lock shared counters in one order (no deadlock).
    const org = await organiser(procs[0]!.url);
    const capacities = [0, 3, 0, 5, 1, 0, 2, 0, 4, 0, 1, 0];
    const ids: string[] = [];
    for (const [i, capacity] of capacities.entries())
      ids.push(await newEvent(org.key, { title: `Spread ${i}`, capacity, maxTeamSize: 2 }));
    // One of them is full before the rush.
    assert.equal((await fire(ids[4]!, org.key, 1, () => ({})))[0]!.status, 201);
    const n = 360;
    const team = (i: number) => i % 7 === 3;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(procs[i % 2]!.url, 'POST', `/api/v1/events/${ids[i % ids.length]}/register`, {
          key: org.key,
          body: {
            name: `P${i}`,
            email: uniqueEmail(`s${i}`),
            ...(team(i) ? { teamMembers: [{ name: `M${i}`, email: uniqueEmail(`s${i}m`) }] } : {}),
          },
        }),
      ),
    );
    assert.ok(
      answers.every((a) => a.status === 201 || a.status === 409),
      `unexpected statuses: ${[...new Set(answers.map((a) => `${a.status} ${a.text.slice(0, 80)}`))].join(' | ')}`,
    );
    for (const [e, capacity] of capacities.entries()) {
      const mine = answers.map((a, i) => ({ a, i })).filter(({ i }) => i % ids.length === e);
      const seats =
        mine.reduce((t, { a, i }) => t + (a.status === 201 ? (team(i) ? 2 : 1) : 0), 0) + (e === 4 ? 1 : 0);
      const list = await call(
        procs[(e + 1) % 2]!.url,
        'GET',
        `/api/v1/events/${ids[e]}/registrations?limit=100`,
        { key: org.key },
      );
      const stored = list.body.data.reduce((t: number, r: any) => t + 1 + r.teamMembers.length, 0);
      const availability = await call(procs[e % 2]!.url, 'GET', `/api/v1/events/${ids[e]}/availability`, {
        key: org.key,
      });
      assert.equal(
        stored,
        seats,
        `event ${e}: every seat acknowledged is a stored ticket, none for a refusal`,
      );
      assert.equal(availability.body.data.taken, seats, `event ${e}: the counter agrees with the tickets`);
      if (capacity === 0) {
        assert.ok(
          mine.every(({ a }) => a.status === 201),
          `event ${e} has no limit: every booking confirmed`,
        );
      } else {
        assert.ok(seats <= capacity, `event ${e}: sold ${seats} of ${capacity}`);
        // A single is refused only when not one seat was left; a team only when fewer than two were.
        const refusedSingle = mine.some(({ a, i }) => a.status === 409 && !team(i));
        if (refusedSingle)
          assert.equal(
            seats,
            capacity,
            `event ${e}: a single refused while seats were left (${seats} of ${capacity})`,
          );
      }
    }
  });

  it('confirms paid registrations racing for the last seats without overselling, refunding the losers', async () => {
    const org = await organiser(procs[0]!.url);
    const eventId = await newEvent(org.key, { title: 'Paid drop', capacity: 10, price: 99 });
    const step1 = await fire(eventId, org.key, 60, () => ({}));
    assert.ok(step1.every((s) => s.status === 201));
    const paid = await Promise.all(
      step1.map(async (s, i) => {
        return {
          ...s.body,
          paymentId: await payInSandbox(keyApi(procs[i % 2]!.url, org.key), s.body.orderId),
        };
      }),
    );
    const step2 = await Promise.all(
      paid.map((p, i) =>
        call(procs[(i + 1) % 2]!.url, 'POST', `/api/v1/events/${eventId}/register`, {
          key: org.key,
          body: { registrationId: p.registrationId, orderId: p.orderId, paymentId: p.paymentId },
        }),
      ),
    );
    assert.equal(step2.filter((r) => r.status === 200).length, 10);
    assert.equal(step2.filter((r) => r.status === 409).length, 50);
    const list = await call(procs[0]!.url, 'GET', `/api/v1/events/${eventId}/registrations`, {
      key: org.key,
    });
    assert.equal(list.body.data.filter((r: any) => r.status === 'confirmed').length, 10);
    assert.equal(list.body.data.filter((r: any) => r.status === 'cancelled').length, 50);
  });

  it('holds each seat of a seated event once when two processes race for the last seats', async () => {
    const org = await organiser(procs[0]!.url);
    const api = keyApi(procs[0]!.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Last four',
      grid: { sections: [{ name: 'Hall', rows: 1, seatsPerRow: 4, category: 'Gold' }] },
    });
    assert.equal(plan.status, 201, plan.text);
    const eventId = await newEvent(org.key, {
      title: 'Seated drop',
      description: 'Four seats',
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 0 }],
    });
    const hold = (i: number, body: Record<string, unknown>) =>
      call(procs[i % 2]!.url, 'POST', `/api/v1/events/${eventId}/seats/hold`, { key: org.key, body });
    // 120 buyers ask for the same seat by name, across both processes: one has it.
    const named = await Promise.all(Array.from({ length: 120 }, (_, i) => hold(i, { seats: ['Hall-A-1'] })));
    assert.equal(named.filter((r) => r.status === 201).length, 1);
    assert.ok(named.every((r) => r.status === 201 || r.body.code === 'seats_unavailable'));
    // 120 more ask for two side by side; three seats are left, so one pair at most.
    const pairs = await Promise.all(
      Array.from({ length: 120 }, (_, i) => hold(i, { category: 'Gold', quantity: 2 })),
    );
    const won = pairs.filter((r) => r.status === 201);
    assert.equal(won.length, 1, 'one pair fits in the three seats left');
    assert.ok(pairs.every((r) => r.status === 201 || r.body.code === 'seats_unavailable'));
    const seats = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/seats`, { key: org.key });
    assert.deepEqual(seats.body.data.counts, { available: 1, held: 3, sold: 0, blocked: 0 });
    const heldIds = [named.find((r) => r.status === 201)!, won[0]!].flatMap((r) =>
      r.body.data.seats.map((s: { id: string }) => s.id),
    );
    assert.equal(new Set(heldIds).size, 3, 'no seat is in two holds');
  });

  it('holds a seat once in each track seated from the same plan, when two processes race for it', async () => {
    const org = await organiser(procs[0]!.url);
    const api = keyApi(procs[0]!.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Two shows',
      grid: { sections: [{ name: 'Hall', rows: 1, seatsPerRow: 2, category: 'Gold' }] },
    });
    assert.equal(plan.status, 201, plan.text);
    const eventId = await newEvent(org.key, {
      title: 'Two shows',
      description: 'One hall, two sittings',
      specialPrices: [{ name: 'Gold', price: 0 }],
      tracks: [
        { title: 'Matinee', seatingPlanId: plan.body.data.id },
        { title: 'Evening', seatingPlanId: plan.body.data.id },
      ],
    });
    // 160 buyers ask for A-1, half of them of each show, across both processes: one has it in each.
    const held = await Promise.all(
      Array.from({ length: 160 }, (_, i) =>
        call(procs[i % 2]!.url, 'POST', `/api/v1/events/${eventId}/seats/hold`, {
          key: org.key,
          body: { seats: ['Hall-A-1'], subEventId: String(Math.floor(i / 2) % 2) },
        }),
      ),
    );
    assert.ok(held.every((r) => r.status === 201 || r.body.code === 'seats_unavailable'));
    const wins = held.map((r, i) => [r.status, Math.floor(i / 2) % 2]).filter(([status]) => status === 201);
    assert.deepEqual(wins.map(([, track]) => track).sort(), [0, 1], 'one hold of A-1 in each show');
    for (const track of ['0', '1']) {
      const seats = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/seats?subEventId=${track}`, {
        key: org.key,
      });
      assert.deepEqual(
        seats.body.data.counts,
        { available: 1, held: 1, sold: 0, blocked: 0 },
        `show ${track}`,
      );
    }
  });

  it('books each seat of a seated event once when two processes race to book the last seats', async () => {
    const org = await organiser(procs[0]!.url);
    const api = keyApi(procs[0]!.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Last six',
      grid: { sections: [{ name: 'Hall', rows: 1, seatsPerRow: 6, category: 'Gold' }] },
    });
    assert.equal(plan.status, 201, plan.text);
    const eventId = await newEvent(org.key, {
      title: 'Seated bookings',
      description: 'Six seats',
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 0 }],
      maxTeamSize: 2,
    });
    const on = (i: number) => procs[i % 2]!.url;
    const register = (i: number, body: Record<string, unknown>) =>
      call(on(i), 'POST', `/api/v1/events/${eventId}/register`, {
        key: org.key,
        body: { name: `P${i}`, email: uniqueEmail(`s${i}`), ...body },
      });
    // One hold of two seats, booked by 40 requests at once across both processes: one booking has them.
    const pair = await call(on(0), 'POST', `/api/v1/events/${eventId}/seats/hold`, {
      key: org.key,
      body: { seats: ['Hall-A-1', 'Hall-A-2'] },
    });
    assert.equal(pair.status, 201, pair.text);
    const team = [{ name: 'Mate', email: uniqueEmail('mate') }];
    const sameHold = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        register(i, { holdToken: pair.body.data.holdToken, teamMembers: team }),
      ),
    );
    assert.equal(sameHold.filter((r) => r.status === 201).length, 1, 'one booking takes the hold');
    assert.ok(sameHold.every((r) => r.status === 201 || r.body.code === 'seat_hold_lapsed'));
    // 60 buyers each hold the best seat left and book it, across both processes: four seats, four bookings.
    const buyers = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const held = await call(on(i), 'POST', `/api/v1/events/${eventId}/seats/hold`, {
          key: org.key,
          body: { category: 'Gold', quantity: 1 },
        });
        if (held.status !== 201) return held;
        return register(i + 1, { holdToken: held.body.data.holdToken });
      }),
    );
    assert.equal(buyers.filter((r) => r.status === 201).length, 4);
    assert.ok(buyers.every((r) => r.status === 201 || r.body.code === 'seats_unavailable'));
    const list = await call(on(1), 'GET', `/api/v1/events/${eventId}/registrations`, { key: org.key });
    const sold = list.body.data.flatMap((r: { seats: { id: string }[] }) => r.seats.map((s) => s.id));
    assert.equal(list.body.data.length, 5, 'five bookings written, no more');
    assert.deepEqual([...sold].sort(), [
      'Hall-A-1',
      'Hall-A-2',
      'Hall-A-3',
      'Hall-A-4',
      'Hall-A-5',
      'Hall-A-6',
    ]);
    const seats = await call(on(0), 'GET', `/api/v1/events/${eventId}/seats`, { key: org.key });
    assert.deepEqual(seats.body.data.counts, { available: 0, held: 0, sold: 6, blocked: 0 });
    const event = await call(on(1), 'GET', `/api/v1/events/${eventId}`, { key: org.key });
    assert.deepEqual([event.body.data.taken, event.body.data.remaining], [6, 0]);
  });

  it('never lets a hold keep a seat a plan change blocked at the same time, across two processes', async () => {
    const org = await organiser(procs[0]!.url);
    const api = keyApi(procs[0]!.url, org.key);
    const made = await api('POST', '/api/v1/seating-plans', {
      name: 'Contested',
      grid: { sections: [{ name: 'Hall', rows: 1, seatsPerRow: 12, category: 'Gold' }] },
    });
    assert.equal(made.status, 201, made.text);
    const planId = made.body.data.id as string;
    const eventId = await newEvent(org.key, {
      title: 'Seated edits',
      description: 'Twelve seats',
      seatingPlanId: planId,
      specialPrices: [{ name: 'Gold', price: 0 }],
    });
    let plan = made.body.data as { seats: { id: string; blocked: boolean }[]; stage: unknown };
    const outcomes: string[] = [];
    for (const seat of plan.seats) {
      const blocking = plan.seats.map((s) => (s.id === seat.id ? { ...s, blocked: true } : s));
      // One process holds the seat while the other blocks it in the plan.
      const [held, edited] = await Promise.all([
        call(procs[0]!.url, 'POST', `/api/v1/events/${eventId}/seats/hold`, {
          key: org.key,
          body: { seats: [seat.id] },
        }),
        call(procs[1]!.url, 'PUT', `/api/v1/seating-plans/${planId}`, {
          key: org.key,
          body: { layout: { seats: blocking, stage: plan.stage } },
        }),
      ]);
      assert.ok(!(held.status === 201 && edited.status === 200), `${seat.id}: held and blocked both`);
      assert.ok(
        [201, 409].includes(held.status) && [200, 409].includes(edited.status),
        held.text + edited.text,
      );
      outcomes.push(held.status === 201 ? 'held' : 'blocked');
      if (edited.status === 200) plan = edited.body.data;
    }
    const seats = await call(procs[1]!.url, 'GET', `/api/v1/events/${eventId}/seats`, { key: org.key });
    const blocked = seats.body.data.seats.filter((s: { status: string }) => s.status === 'blocked').length;
    const held = seats.body.data.seats.filter((s: { status: string }) => s.status === 'held').length;
    assert.deepEqual(
      [blocked, held],
      [outcomes.filter((o) => o === 'blocked').length, outcomes.filter((o) => o === 'held').length],
    );
    const event = await call(procs[0]!.url, 'GET', `/api/v1/events/${eventId}`, { key: org.key });
    assert.equal(event.body.data.capacity, 12 - blocked, 'the event refitted to each change');
  });
});
