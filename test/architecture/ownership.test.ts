// The table-ownership check over the source: the real tree passes, and a stray query
// (another module's table, or a query outside a repo file) fails it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error a plain .mjs script without types
import { checkOwnership } from '../../scripts/check-ownership.mjs';

const check = checkOwnership as (root: string) => string[];

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ownership-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('every query in src/ is in the repo of the module that owns its table', () => {
  assert.deepEqual(check(process.cwd()), []);
});

test('a module querying another module’s table fails the check', (t) => {
  const root = tree({
    'src/modules/tickets/tickets.repo.ts': "export const f = (db) => db.selectFrom('registrations').selectAll().execute();\n",
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.deepEqual(check(root), ['src/modules/tickets/tickets.repo.ts:1: tickets queries registrations, which registrations owns']);
});

test('a query outside a repo file fails the check, raw SQL included', (t) => {
  const root = tree({
    'src/modules/events/events.service.ts': 'export const f = (db) => sql`select * from events`.execute(db);\n',
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.deepEqual(check(root), ['src/modules/events/events.service.ts:1: query on events outside a repo file']);
});

test('a marked exception covers its declaration and nothing after it', (t) => {
  const root = tree({
    'src/modules/registrations/register.repo.ts': [
      '// ownership-exception: one statement claims seats and books',
      'export async function book(db) {',
      "  await db.updateTable('seat_counters').execute();",
      '}',
      "export const stray = (db) => db.selectFrom('users').selectAll().execute();",
      '',
    ].join('\n'),
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.deepEqual(check(root), ['src/modules/registrations/register.repo.ts:5: registrations queries users, which accounts owns']);
});
