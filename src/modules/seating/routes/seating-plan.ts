// What the seating plan operations share: the seat and plan schemas, the plan as answered, the
// sources a plan is made from (a grid or a seat list), and their examples.
import { Type } from 'typebox';
import { EX } from '../../../http/examples.js';
import type { SeatingPlanRow } from '../seating.repo.js';
import { categoriesOf } from '../seating-plans.js';

export const E = Type.Ref('Error');
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Seating plan id' }) });

const Point = Type.Object({ x: Type.Number(), y: Type.Number() }, { additionalProperties: false });

export const SeatSchema = Type.Object({
  id: Type.String({
    description: 'Stable across edits: `<section>-<row>-<number>` unless the import named it.',
  }),
  section: Type.String(),
  row: Type.String(),
  number: Type.Integer(),
  label: Type.String({ description: 'What a person reads, e.g. "Row C, seat 12".' }),
  x: Type.Number(),
  y: Type.Number(),
  category: Type.String({ description: 'The price category; an event maps each to a tier.' }),
  accessible: Type.Boolean(),
  blocked: Type.Boolean({ description: 'Never sold (a pillar, a camera platform, house seats).' }),
});

const Label = Type.String({ minLength: 1, maxLength: 40 });

const GridSectionSchema = Type.Object(
  {
    name: Label,
    rows: Type.Integer({ minimum: 1, maximum: 200 }),
    seatsPerRow: Type.Integer({ minimum: 1, maximum: 500 }),
    category: Type.Union([Label, Type.Array(Label, { minItems: 1, maxItems: 200 })], {
      description: 'One category, or one per row from the front (the last repeats).',
    }),
    firstRow: Type.Optional(
      Type.String({
        pattern: '^[A-HJ-NP-Za-hj-np-z]$',
        description: 'The first row’s letter (default A); I and O are skipped.',
      }),
    ),
    aisleAfter: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        maxItems: 50,
        description: 'Seat numbers after which an aisle runs.',
      }),
    ),
    numbering: Type.Optional(
      Type.Union([Type.Literal('left-to-right'), Type.Literal('right-to-left')], {
        description: 'Where seat 1 is, seen from the stage (default left).',
      }),
    ),
    curve: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 50,
        description: '0 for straight rows; more bends the row ends towards the stage.',
      }),
    ),
    origin: Type.Optional(Point),
    accessible: Type.Optional(
      Type.Array(
        Type.Object(
          { row: Label, seats: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 }) },
          { additionalProperties: false },
        ),
        { maxItems: 200 },
      ),
    ),
  },
  { additionalProperties: false },
);

const ImportedSeatSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    section: Label,
    row: Label,
    number: Type.Integer({ minimum: 0, maximum: 100000 }),
    label: Type.Optional(Type.String({ maxLength: 100 })),
    x: Type.Number(),
    y: Type.Number(),
    category: Label,
    accessible: Type.Optional(Type.Boolean()),
    blocked: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const Grid = Type.Object(
  { sections: Type.Array(GridSectionSchema, { minItems: 1, maxItems: 50 }), stage: Type.Optional(Point) },
  { additionalProperties: false, description: 'Sections of rows × seats, generated.' },
);
export const Layout = Type.Object(
  { seats: Type.Array(ImportedSeatSchema, { minItems: 1, maxItems: 60000 }), stage: Type.Optional(Point) },
  {
    additionalProperties: false,
    description:
      'Every seat given (an import, or a plan as read and edited: rename, block, mark accessible).',
  },
);

export const SOURCE_RULES =
  'A plan is made from `grid` (sections of rows × seats: row letters without I and O, aisles after given seat numbers, seat 1 at the left or right, straight or curved rows) or from `layout` (the seats themselves, as imported or as read and edited). `stage` defaults to the middle in front of the first row, at the smallest `y`: best available counts nearness from it. At most 60,000 seats; seat ids must be unique. A `layout` travels in one request body of at most 1 MiB, some 7,000 seats (413 `payload_too_large` above it); a larger plan is made from `grid`, and cannot yet be edited seat by seat through `layout`. Plans belong to the account: its test and live keys see the same plans.';

export const PlanSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  seatCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const Plan = Type.Object({
  ...PlanSummary.properties,
  categories: Type.Array(
    Type.Object({ name: Type.String(), seats: Type.Integer({ description: 'Seats that are not blocked.' }) }),
  ),
  stage: Point,
  seats: Type.Array(SeatSchema),
});

export const presentSummary = (
  r: Pick<SeatingPlanRow, 'id' | 'name' | 'seat_count' | 'created_at' | 'updated_at'>,
) => ({
  id: r.id,
  name: r.name,
  seatCount: r.seat_count,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export const presentPlan = (r: SeatingPlanRow) => ({
  ...presentSummary(r),
  categories: categoriesOf(r.layout),
  stage: r.layout.stage,
  seats: r.layout.seats,
});

const seat = (row: string, number: number, x: number, category: string, accessible = false) => ({
  id: `Stalls-${row}-${number}`,
  section: 'Stalls',
  row,
  number,
  label: `Row ${row}, seat ${number}`,
  x,
  y: row === 'A' ? 0 : 1,
  category,
  accessible,
  blocked: false,
});

/** The plan the examples show: two rows of three seats, an aisle after seat 2. */
export const PLAN_EXAMPLE = {
  id: EX.seatingPlanId,
  name: 'Rangashankara main hall',
  seatCount: 6,
  createdAt: '2026-11-25T07:51:24.908Z',
  updatedAt: '2026-11-25T07:51:24.908Z',
  categories: [
    { name: 'Gold', seats: 3 },
    { name: 'Silver', seats: 3 },
  ],
  stage: { x: 1.5, y: -1 },
  seats: [
    seat('A', 1, 0, 'Gold', true),
    seat('A', 2, 1, 'Gold'),
    seat('A', 3, 3, 'Gold'),
    seat('B', 1, 0, 'Silver'),
    seat('B', 2, 1, 'Silver'),
    seat('B', 3, 3, 'Silver'),
  ],
};

export const GRID_EXAMPLE = {
  sections: [
    {
      name: 'Stalls',
      rows: 2,
      seatsPerRow: 3,
      category: ['Gold', 'Silver'],
      aisleAfter: [2],
      accessible: [{ row: 'A', seats: [1] }],
    },
  ],
};
