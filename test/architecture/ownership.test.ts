// The table-ownership check over the source: the real tree passes, and every way of
// writing a stray query (another module's table, or a query outside a repo file) fails
// it, however it is spelled: quoting, line breaks, constants, `sql.table`/`sql.raw`,
// comma joins, joins and sub-selects inside `sql` templates, code after an exception.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
// @ts-expect-error a plain .mjs script without types
import { checkOwnership, OWNERS as OWNERS_ } from '../../scripts/check-ownership.mjs';

const check = checkOwnership as (root: string) => Promise<string[]>;
const OWNERS = OWNERS_ as Record<string, string>;

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ownership-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The problems the check finds in a one-file tree. */
async function problems(path: string, text: string): Promise<string[]> {
  const root = tree({ [path]: text });
  try {
    return await check(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const REPO = 'src/modules/tickets/tickets.repo.ts';
const header = "import { sql } from 'kysely';\n";

test('every query in src/ is in the repo of the module that owns its table', async () => {
  assert.deepEqual(await check(process.cwd()), []);
});

describe('stray queries fail the check, however they are written', () => {
  test('another module’s table through the builder', async () => {
    assert.deepEqual(
      await problems(
        REPO,
        "export const f = (db: any) => db.selectFrom('registrations').selectAll().execute();\n",
      ),
      [`${REPO}:1: tickets queries registrations, which registrations owns`],
    );
  });

  test('a table name in double quotes', async () => {
    assert.deepEqual(
      await problems(
        REPO,
        'export const f = (db: any) => db.selectFrom("registrations").selectAll().execute();\n',
      ),
      [`${REPO}:1: tickets queries registrations, which registrations owns`],
    );
  });

  test('a call split across lines', async () => {
    const text =
      "export const f = (db: any) =>\n  db\n    .selectFrom(\n      'registrations'\n    )\n    .selectAll()\n    .execute();\n";
    assert.deepEqual(await problems(REPO, text), [
      `${REPO}:4: tickets queries registrations, which registrations owns`,
    ]);
  });

  test('a table name held in a constant', async () => {
    const text =
      "const TABLE = 'registrations';\nexport const f = (db: any) => db.updateTable(TABLE).set({ x: 1 }).execute();\n";
    assert.deepEqual(await problems(REPO, text), [
      `${REPO}:2: tickets queries registrations, which registrations owns`,
    ]);
  });

  test('a table name the check cannot resolve fails closed', async () => {
    const text = 'export const f = (db: any, table: string) => db.deleteFrom(table).execute();\n';
    assert.deepEqual(await problems(REPO, text), [
      `${REPO}:1: the table of deleteFrom(table) is not a constant the check can read`,
    ]);
  });

  test('sql.table() and sql.raw()', async () => {
    const text = `${header}export const f = (db: any) => db.selectFrom(sql.table('attendees')).execute();\nexport const g = (db: any) => sql.raw('select * from promo_codes').execute(db);\n`;
    assert.deepEqual(await problems(REPO, text), [
      `${REPO}:2: tickets queries attendees, which registrations owns`,
      `${REPO}:3: tickets queries promo_codes, which registrations owns`,
    ]);
  });

  test('a comma join in a sql template counts every table', async () => {
    const text = `${header}export const f = (db: any) => sql\`select * from jobs j, registrations r where j.id = r.id\`.execute(db);\n`;
    const found = await problems('src/jobs/queue.ts', text);
    assert.deepEqual(found, ['src/jobs/queue.ts:2: jobs queries registrations, which registrations owns']);
  });

  test('a left join and a sub-select inside a multi-line sql template', async () => {
    const text = [
      header + 'export const f = (db: any, id: string) => sql`',
      '  select e.id',
      '  from events e',
      '  left join attendees a on a.event_id = e.id',
      '  where e.id = ${id}',
      '    and exists (select 1 from memberships m where m.email = a.email)',
      '`.execute(db);',
      '',
    ].join('\n');
    assert.deepEqual(await problems('src/modules/events/events.repo.ts', text), [
      'src/modules/events/events.repo.ts:2: events queries attendees, which registrations owns',
      'src/modules/events/events.repo.ts:2: events queries memberships, which memberships owns',
    ]);
  });

  test('a nested sql fragment is read with its template', async () => {
    const text = `${header}export const f = (db: any) => sql\`select * from events e \${sql\`join registrations r on r.event_id = e.id\`}\`.execute(db);\n`;
    assert.deepEqual(await problems('src/modules/events/events.repo.ts', text), [
      'src/modules/events/events.repo.ts:2: events queries registrations, which registrations owns',
    ]);
  });

  test('a query outside a repo file, raw SQL included', async () => {
    const text = `${header}export const f = (db: any) => sql\`select * from events\`.execute(db);\n`;
    assert.deepEqual(await problems('src/modules/events/events.service.ts', text), [
      'src/modules/events/events.service.ts:2: query on events outside a repo file',
    ]);
  });

  test('a marked exception covers its one declaration and nothing after it', async () => {
    const text = [
      '// ownership-exception: one statement claims seats and books',
      'export async function book(db: any) {',
      "  await db.updateTable('seat_counters').set({ taken: 1 }).execute();",
      '}',
      "export const stray = (db: any) => db.selectFrom('users').selectAll().execute();",
      "export const another = (db: any) => db.selectFrom('jobs').selectAll().execute();",
      '',
    ].join('\n');
    assert.deepEqual(await problems('src/modules/registrations/register.repo.ts', text), [
      'src/modules/registrations/register.repo.ts:5: registrations queries users, which accounts owns',
      'src/modules/registrations/register.repo.ts:6: registrations queries jobs, which jobs owns',
    ]);
  });

  test('a CTE’s name is not a table, its body is read', async () => {
    const text = `${header}export const f = (db: any) => sql\`with picked as (select * from registrations) select * from picked join events e on true\`.execute(db);\n`;
    assert.deepEqual(await problems('src/modules/events/events.repo.ts', text), [
      'src/modules/events/events.repo.ts:2: events queries registrations, which registrations owns',
    ]);
  });
});

describe('each module declares its tables next to its code', () => {
  test('the owner list is read from the modules’ *.tables.ts files', () => {
    assert.equal(OWNERS.registrations, 'registrations');
    assert.equal(OWNERS.seat_counters, 'events');
    assert.equal(OWNERS.jobs, 'jobs');
    assert.equal(OWNERS.sandbox_clocks, 'accounts');
  });

  test('a table declared by two modules', async () => {
    const tables = (name: string, table: string) =>
      `export interface ${name}Tables {\n  ${table}: { id: string };\n}\n`;
    const root = tree({
      'src/modules/a/a.tables.ts': tables('A', 'things'),
      'src/modules/b/b.tables.ts': tables('B', 'things'),
    });
    try {
      assert.deepEqual(await check(root), ['src/modules/b/b.tables.ts: table things is declared by a too']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a table Database declares itself', async () => {
    const text = 'export interface Database {\n  things: { id: string };\n}\n';
    assert.deepEqual(await problems('src/db/database.ts', text), [
      "src/db/database.ts: Database declares things itself; a table is declared in its module's *.tables.ts",
    ]);
  });

  test('a tables file importing anything but kysely and the column types', async () => {
    const text =
      "import type { Mode } from '../../db/columns.js';\nimport type { Thing } from './tickets.service.js';\nexport interface TicketsTables {\n  tickets: { mode: Mode; thing: Thing };\n}\n";
    assert.deepEqual(await problems('src/modules/tickets/tickets.tables.ts', text), [
      'src/modules/tickets/tickets.tables.ts:2: a tables file imports only kysely and src/db/columns.ts, not ./tickets.service.js',
    ]);
  });

  test('another module importing a tables file directly', async () => {
    const root = tree({
      'src/modules/events/events.tables.ts':
        'export interface EventsTables {}\nexport type Status = string;\n',
      'src/modules/events/events.repo.ts':
        "import type { Status } from './events.tables.js';\nexport const s: Status = 'x';\n",
      'src/modules/tickets/tickets.service.ts':
        "import type { Status } from '../events/events.tables.js';\nexport const s: Status = 'x';\n",
    });
    try {
      assert.deepEqual(await check(root), [
        "src/modules/tickets/tickets.service.ts:1: imports another module's tables file src/modules/events/events.tables.ts; import its types from src/db/database.ts",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
