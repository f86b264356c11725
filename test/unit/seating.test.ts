// Seating plans and best available, as pure rules: the grid generator's rows, aisles and
// numbering, the layout checks, and best available's promises, example by example and as
// properties over random plans and random taken seats (fast-check).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { editSeats, namedSeats } from '../../src/modules/seating/seat-edits.js';
import {
  bestAvailable,
  leavesSingle,
  seatRuns,
  type SeatRuns,
} from '../../src/modules/seating/best-available.js';
import {
  checkLayout,
  generatePlan,
  PlanError,
  rowLabels,
  type Seat,
} from '../../src/modules/seating/plan.js';

describe('the grid generator', () => {
  it('labels rows A to Z without I and O, then AA', () => {
    assert.deepEqual(rowLabels('G', 4), ['G', 'H', 'J', 'K']);
    assert.deepEqual(rowLabels('Y', 4), ['Y', 'Z', 'AA', 'AB']);
    assert.throws(() => rowLabels('I', 1), PlanError);
  });

  it('makes rows of seats front to back, with an aisle gap, numbered either way', () => {
    const plan = generatePlan([
      { name: 'Stalls', rows: 2, seatsPerRow: 6, category: ['Gold', 'Silver'], aisleAfter: [3] },
    ]);
    assert.equal(plan.seats.length, 12);
    const rowA = plan.seats.filter((s) => s.row === 'A');
    assert.deepEqual(
      rowA.map((s) => s.number),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      rowA.map((s) => s.x),
      [0, 1, 2, 4, 5, 6],
      'a gap after seat 3',
    );
    assert.deepEqual([...new Set(plan.seats.map((s) => `${s.row}:${s.category}`))], ['A:Gold', 'B:Silver']);
    assert.equal(plan.seats[0]!.label, 'Row A, seat 1');
    assert.deepEqual(plan.stage, { x: 3, y: -1 }, 'centred in front of row A');
    const rtl = generatePlan([
      {
        name: 'Balcony',
        rows: 1,
        seatsPerRow: 4,
        category: 'Silver',
        numbering: 'right-to-left',
        aisleAfter: [2],
      },
    ]);
    assert.deepEqual(
      rtl.seats.map((s) => [s.number, s.x]),
      [
        [4, 0],
        [3, 1],
        [2, 3],
        [1, 4],
      ],
      'seat 1 at the right, the aisle between 3 and 2',
    );
  });

  it('bends curved rows towards the stage at their ends, and marks accessible seats', () => {
    const plan = generatePlan([
      {
        name: 'Arena',
        rows: 1,
        seatsPerRow: 5,
        category: 'Gold',
        curve: 1,
        accessible: [{ row: 'A', seats: [1, 5] }],
      },
    ]);
    const ys = plan.seats.map((s) => s.y);
    assert.ok(ys[0]! < ys[2]! && ys[4]! < ys[2]!, 'the ends are nearer the stage than the middle');
    assert.deepEqual(
      plan.seats.filter((s) => s.accessible).map((s) => s.number),
      [1, 5],
    );
  });

  it('refuses a grid over the seat limit before making any seat', () => {
    const huge = Array.from({ length: 50 }, (_, i) => ({
      name: `S${i}`,
      rows: 200,
      seatsPerRow: 500,
      category: 'G',
    }));
    assert.throws(() => generatePlan(huge), /at most 60000 seats; this grid makes 5000000/);
  });

  it('refuses a plan with no seats, twice the same seat, or a seat without a place', () => {
    assert.throws(() => checkLayout({ stage: { x: 0, y: 0 }, seats: [] }), PlanError);
    const seat = generatePlan([{ name: 'S', rows: 1, seatsPerRow: 1, category: 'G' }]).seats[0]!;
    assert.throws(() => checkLayout({ stage: { x: 0, y: 0 }, seats: [seat, seat] }), /twice/);
    assert.throws(
      () => checkLayout({ stage: { x: 0, y: 0 }, seats: [{ ...seat, x: Number.NaN }] }),
      /x and y/,
    );
  });
});

describe('best available, by example', () => {
  const plan = generatePlan([
    {
      name: 'Hall',
      rows: 3,
      seatsPerRow: 8,
      category: 'Gold',
      aisleAfter: [4],
      accessible: [{ row: 'C', seats: [1, 2] }],
    },
  ]);
  const runs = seatRuns(plan.seats, plan.stage);
  const id = (row: string, n: number) => `Hall-${row}-${n}`;

  it('picks adjacent seats in the front row, nearest the stage, never across the aisle', () => {
    assert.deepEqual(bestAvailable(runs, new Set(), { category: 'Gold', quantity: 2 }), [
      id('A', 3),
      id('A', 4),
    ]);
    const four = bestAvailable(runs, new Set(), { category: 'Gold', quantity: 4 })!;
    assert.deepEqual(
      four,
      [1, 2, 3, 4].map((n) => id('A', n)),
      'one side of the aisle (the first of two as near)',
    );
    assert.equal(
      bestAvailable(runs, new Set(), { category: 'Gold', quantity: 5 }),
      undefined,
      'no run of five: not split',
    );
  });

  it('moves back a row rather than leave a single seat between taken ones', () => {
    // Row A: seat 1 and the whole right block taken. A3-A4 is nearest but strands A2 between A1
    // and A3; the nearest choice that strands nobody is B3-B4.
    const taken = new Set([1, 5, 6, 7, 8].map((n) => id('A', n)));
    assert.deepEqual(bestAvailable(runs, taken, { category: 'Gold', quantity: 2 }), [id('B', 3), id('B', 4)]);
    // With rows B and C gone too, A3-A4 is still refused in favour of A2-A3.
    const rest = new Set([...taken, ...plan.seats.filter((s) => s.row !== 'A').map((s) => s.id)]);
    assert.deepEqual(bestAvailable(runs, rest, { category: 'Gold', quantity: 2 }), [id('A', 2), id('A', 3)]);
    // One seat of A3-A4: A4 is nearer but strands A3 between A2 and A4; A3 strands nobody.
    const tight = new Set([...rest, id('A', 2)]);
    assert.deepEqual(bestAvailable(runs, tight, { category: 'Gold', quantity: 1 }), [id('A', 3)]);
    // When every choice strands someone (A2 or A3 alone between A1 and A4), the nearest is given.
    const stranded = new Set([...rest.values()].filter((s) => s !== id('A', 2)).concat(id('A', 4)));
    assert.deepEqual(bestAvailable(runs, stranded, { category: 'Gold', quantity: 1 }), [id('A', 3)]);
  });

  it('gives accessible seats only when asked, and only those then', () => {
    const asked = bestAvailable(runs, new Set(), { category: 'Gold', quantity: 2, accessible: true });
    assert.deepEqual(asked, [id('C', 1), id('C', 2)]);
    const allButAccessible = new Set(plan.seats.filter((s) => !s.accessible).map((s) => s.id));
    assert.equal(bestAvailable(runs, allButAccessible, { category: 'Gold', quantity: 1 }), undefined);
  });
});

// ---------------------------------------------------------------- properties

/** A random plan: a few sections of rows with aisles, categories and blocked or accessible seats. */
const planArb = fc
  .record({
    sections: fc.array(
      fc.record({
        rows: fc.integer({ min: 1, max: 5 }),
        seatsPerRow: fc.integer({ min: 1, max: 12 }),
        aisle: fc.option(fc.integer({ min: 1, max: 11 }), { nil: undefined }),
        categories: fc.array(fc.constantFrom('Gold', 'Silver'), { minLength: 1, maxLength: 3 }),
        curve: fc.constantFrom(0, 0.5),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    marks: fc.array(fc.tuple(fc.nat(), fc.constantFrom('blocked', 'accessible', 'taken')), { maxLength: 40 }),
  })
  .map(({ sections, marks }) => {
    const layout = generatePlan(
      sections.map((s, i) => ({
        name: `S${i}`,
        rows: s.rows,
        seatsPerRow: s.seatsPerRow,
        category: s.categories,
        aisleAfter: s.aisle ? [s.aisle] : [],
        curve: s.curve,
        origin: { x: i * 20, y: 0 },
      })),
    );
    const seats: Seat[] = layout.seats.map((s) => ({ ...s }));
    const taken = new Set<string>();
    for (const [n, mark] of marks) {
      const seat = seats[n % seats.length]!;
      if (mark === 'blocked') seat.blocked = true;
      else if (mark === 'accessible') seat.accessible = true;
      else taken.add(seat.id);
    }
    return { runs: seatRuns(seats, layout.stage), seats, taken };
  });

const requestArb = fc.record({
  category: fc.constantFrom('Gold', 'Silver'),
  quantity: fc.integer({ min: 1, max: 6 }),
  accessible: fc.boolean(),
});

/** Every window of `quantity` seats in one run that would do, with whether it leaves a single seat. */
function windows(
  runs: SeatRuns,
  taken: ReadonlySet<string>,
  r: { category: string; quantity: number; accessible: boolean },
) {
  const free = (s: Seat) => !s.blocked && !taken.has(s.id);
  const out: { ids: string[]; single: boolean }[] = [];
  for (const run of runs.runs) {
    for (let i = 0; i + r.quantity <= run.length; i++) {
      const g = run.slice(i, i + r.quantity);
      if (g.every((s) => free(s) && s.category === r.category && s.accessible === r.accessible))
        out.push({ ids: g.map((s) => s.id), single: leavesSingle(run, i, r.quantity, free) });
    }
  }
  return out;
}

describe('best available, as properties over random plans', () => {
  it('never answers a taken, blocked, other-category or unasked-accessible seat, and answers exactly the quantity', () => {
    fc.assert(
      fc.property(planArb, requestArb, ({ runs, seats, taken }, r) => {
        const got = bestAvailable(runs, taken, r);
        if (!got) return;
        const byId = new Map(seats.map((s) => [s.id, s]));
        assert.equal(got.length, r.quantity);
        assert.equal(new Set(got).size, got.length);
        for (const id of got) {
          const s = byId.get(id)!;
          assert.ok(!taken.has(id) && !s.blocked, `${id} is not free`);
          assert.equal(s.category, r.category);
          assert.equal(s.accessible, r.accessible);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never splits a group: the seats are adjacent in one run, and an answer exists whenever such a block does', () => {
    fc.assert(
      fc.property(planArb, requestArb, ({ runs, taken }, r) => {
        const got = bestAvailable(runs, taken, r);
        const all = windows(runs, taken, r);
        assert.equal(got !== undefined, all.length > 0);
        if (got)
          assert.ok(
            all.some((w) => JSON.stringify(w.ids) === JSON.stringify(got)),
            'one of the adjacent blocks',
          );
      }),
      { numRuns: 400 },
    );
  });

  it('leaves no single empty seat between taken ones when another choice avoids it', () => {
    fc.assert(
      fc.property(planArb, requestArb, ({ runs, taken }, r) => {
        const got = bestAvailable(runs, taken, r);
        const all = windows(runs, taken, r);
        if (!got || !all.some((w) => !w.single)) return;
        assert.equal(all.find((w) => JSON.stringify(w.ids) === JSON.stringify(got))!.single, false);
      }),
      { numRuns: 400 },
    );
  });
});

describe('best available looks nearest first and stops early, as properties', () => {
  /** The choice by the rule itself, over every window in plan order (no ordering, no early stop). */
  function everyWindow(
    runs: SeatRuns,
    taken: ReadonlySet<string>,
    r: { category: string; quantity: number; accessible: boolean },
  ): string[] | undefined {
    const free = (s: Seat) => !s.blocked && !taken.has(s.id);
    let best: { ids: string[]; single: boolean; distance: number } | undefined;
    for (const run of runs.runs) {
      for (let i = 0; i + r.quantity <= run.length; i++) {
        const g = run.slice(i, i + r.quantity);
        if (!g.every((s) => free(s) && s.category === r.category && s.accessible === r.accessible)) continue;
        const x = g.reduce((sum, s) => sum + s.x, 0) / g.length;
        const y = g.reduce((sum, s) => sum + s.y, 0) / g.length;
        const choice = {
          ids: g.map((s) => s.id),
          single: leavesSingle(run, i, r.quantity, free),
          distance: Math.hypot(x - runs.stage.x, y - runs.stage.y),
        };
        const wins =
          !best || (choice.single !== best.single ? !choice.single : choice.distance < best.distance - 1e-9);
        if (wins) best = choice;
      }
    }
    return best?.ids;
  }

  it('answers what looking at every window in plan order answers', () => {
    fc.assert(
      fc.property(planArb, requestArb, ({ runs, taken }, r) => {
        assert.deepEqual(bestAvailable(runs, taken, r), everyWindow(runs, taken, r));
      }),
      { numRuns: 600 },
    );
  });
});

describe('seats named as a person types them', () => {
  const twoSections = generatePlan([
    { name: 'Stalls', rows: 3, seatsPerRow: 8, category: 'Gold' },
    { name: 'Balcony', rows: 2, seatsPerRow: 4, category: 'Silver' },
  ]).seats;
  const stalls = generatePlan([{ name: 'Stalls', rows: 3, seatsPerRow: 8, category: 'Gold' }]).seats;
  const ids = (seats: { id: string }[]) => seats.map((s) => s.id);

  it('reads seats, ranges either way, ids and sections, each seat once, in plan order', () => {
    assert.deepEqual(ids(namedSeats(stalls, 'a1, A3-A2;C8 Stalls-B-1 A1')), [
      'Stalls-A-1',
      'Stalls-A-2',
      'Stalls-A-3',
      'Stalls-B-1',
      'Stalls-C-8',
    ]);
    assert.deepEqual(ids(namedSeats(twoSections, 'Balcony:A1-A2')), ['Balcony-A-1', 'Balcony-A-2']);
  });

  it('refuses a name that fits no seat, a range across rows, and a row two sections share', () => {
    assert.throws(() => namedSeats(stalls, 'A9'), /"A9" names no seat/);
    assert.throws(() => namedSeats(stalls, 'A1-B2'), /a range stays in one row/);
    assert.throws(() => namedSeats(stalls, 'seat 1'), /"seat" is not a seat/);
    assert.throws(() => namedSeats(stalls, ' , '), /name at least one seat/);
    assert.throws(() => namedSeats(twoSections, 'A1'), /put the section first, such as Stalls:A1/);
  });

  it('blocks, releases and marks only the seats named', () => {
    const layout = generatePlan([{ name: 'Stalls', rows: 1, seatsPerRow: 3, category: 'Gold' }]);
    const blocked = editSeats(layout, new Set(['Stalls-A-2']), 'block');
    assert.deepEqual(
      blocked.seats.map((s) => s.blocked),
      [false, true, false],
    );
    assert.equal(editSeats(blocked, new Set(['Stalls-A-2']), 'release').seats[1]!.blocked, false);
    const marked = editSeats(layout, new Set(['Stalls-A-1']), 'accessible');
    assert.deepEqual(
      marked.seats.map((s) => s.accessible),
      [true, false, false],
    );
    assert.equal(editSeats(marked, new Set(['Stalls-A-1']), 'not-accessible').seats[0]!.accessible, false);
    assert.equal(layout.seats[1]!.blocked, false, 'the plan given is not changed');
  });
});
