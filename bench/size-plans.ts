// The plans behind `npm run bench:size`'s figures (docs/operations/size-plans.md): the
// service's own reading functions, the ones its routes call, are run against the loaded
// database through a Kysely that records every statement they send (its text and
// parameters), and each statement is then run again under EXPLAIN (ANALYZE, BUFFERS). So the
// plans are those of the service's SQL at the loaded size, with the values a request sends.
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Database } from '../src/db/database.js';
import * as auditRepo from '../src/modules/audit/audit.repo.js';
import * as eventsRepo from '../src/modules/events/events.repo.js';
import * as seatsRepo from '../src/modules/events/seats.repo.js';
import * as reports from '../src/modules/registrations/registration-reports.repo.js';
import * as registrations from '../src/modules/registrations/registrations.service.js';
import { EXPORT_BATCH } from '../src/modules/exports/exports.service.js';
import { EVENTS_PAGE_SIZE } from '../src/dashboard/views/events.js';
import { EXPORT_LABEL, SIZE_FIGURES } from './size-measure.js';

export interface PlanSubject {
  eventId: string;
  accountId: string;
  /** A registration 90 % of the way into the event, oldest first. */
  cursor: string;
}

interface PlanCase {
  /** The figure it explains (a label of SIZE_FIGURES, or the export's). */
  figure: string;
  what: string;
  run(db: Kysely<Database>, s: PlanSubject): Promise<unknown>;
}

const label = (key: string) => SIZE_FIGURES.find((f) => f.key === key)!.label;

/** What each figure's route reads, by the functions it calls. */
export const PLAN_CASES: PlanCase[] = [
  {
    figure: label('first'),
    what: 'listRegistrationsPage: the page (limit + 1 rows), its people, the event’s count',
    run: (db, s) => registrations.listRegistrationsPage(db, s.eventId, { limit: 100 }),
  },
  {
    figure: label('deep'),
    what: 'listRegistrationsPage after a cursor: the cursor’s check, the page, its people, the count',
    run: (db, s) =>
      registrations.listRegistrationsPage(db, s.eventId, { limit: 100, startingAfter: s.cursor }),
  },
  {
    figure: label('analytics'),
    what: 'eventCounts (counts, admitted and revenue by status) and the seats taken',
    run: async (db, s) => [
      await registrations.eventCounts(db, s.eventId),
      await seatsRepo.usage(db, s.eventId),
    ],
  },
  {
    figure: label('audit'),
    what: 'listEntries: the account’s newest entries in the key’s mode',
    run: (db, s) => auditRepo.listEntries(db, { accountId: s.accountId, mode: 'test', limit: 101 }),
  },
  {
    figure: label('events'),
    what: `listEventsNumbered (the first page of ${EVENTS_PAGE_SIZE} and the count of all), then the seats taken of the events listed`,
    run: async (db, s) => {
      const { rows } = await eventsRepo.listEventsNumbered(db, s.accountId, 'test', {
        limit: EVENTS_PAGE_SIZE,
        offset: 0,
        ids: null,
      });
      return seatsRepo.usageOfMany(
        db,
        rows.map((r) => r.id),
      );
    },
  },
  {
    figure: label('recent'),
    what: 'searchByEvent (newest first, one page) and the page’s people',
    run: async (db, s) => {
      const rows = await reports.searchByEvent(db, s.eventId, { limit: 50 });
      return registrations.attendeesOf(
        db,
        rows.slice(0, 50).map((r) => r.id),
      );
    },
  },
  {
    figure: EXPORT_LABEL,
    what: `exportPage: the first batch of ${EXPORT_BATCH}, and one 90 % of the way in (each batch also reads its people)`,
    run: async (db, s) => [
      await reports.exportPage(db, s.eventId, {}, undefined, EXPORT_BATCH),
      await reports.exportPage(db, s.eventId, {}, s.cursor, EXPORT_BATCH),
    ],
  },
];

export interface CapturedPlan {
  figure: string;
  what: string;
  statements: { sql: string; parameters: readonly unknown[]; plan: string }[];
}

/** Runs each case with the statements recorded, then explains each statement. */
export async function capturePlans(pool: pg.Pool, s: PlanSubject): Promise<CapturedPlan[]> {
  let recorded: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (e) => {
      if (e.level === 'query') recorded.push({ sql: e.query.sql, parameters: e.query.parameters });
    },
  });
  const out: CapturedPlan[] = [];
  for (const c of PLAN_CASES) {
    recorded = [];
    await c.run(db, s);
    const statements = [];
    for (const r of recorded) {
      const e = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${r.sql}`, [
        ...r.parameters,
      ]);
      statements.push({ ...r, plan: e.rows.map((x) => x['QUERY PLAN']).join('\n') });
    }
    out.push({ figure: c.figure, what: c.what, statements });
  }
  return out;
}

/** A parameter as the plan's reader needs it. */
function shown(p: unknown): string {
  if (p instanceof Date) return p.toISOString();
  return JSON.stringify(p);
}

/** A statement's text on one line, a long run of placeholders (`in ($1, $2, …)`) shortened. */
export function statementText(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\$(\d+)(?:, \$\d+){4,}, \$(\d+)/g, '$$$1, …, $$$2');
}

/** The parameters, the first few of a long list and how many in all. */
export function parametersText(parameters: readonly unknown[]): string {
  const each = parameters.map((x, j) => `$${j + 1} = ${shown(x)}`);
  return parameters.length > 6
    ? `${each.slice(0, 3).join(', ')}, … (${parameters.length} in all)`
    : each.join(', ');
}

/** docs/operations/size-plans.md: the header the run gives, then each figure's statements and plans. */
export function renderPlans(plans: readonly CapturedPlan[], header: string[]): string {
  const lines = [
    '<!-- Generated by `npm run bench:size` (bench/size-plans.ts). Do not edit this file: run the benchmark. -->',
    '# Plans at size',
    '',
    ...header,
    '',
  ];
  for (const p of plans) {
    lines.push(`## ${p.figure}`, '', `${p.what}.`, '');
    p.statements.forEach((st, i) => {
      lines.push(
        `Statement ${i + 1} of ${p.statements.length}:`,
        '',
        '```sql',
        statementText(st.sql),
        '```',
        '',
      );
      if (st.parameters.length > 0) lines.push(`Parameters: ${parametersText(st.parameters)}`, '');
      lines.push('```', st.plan, '```', '');
    });
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
