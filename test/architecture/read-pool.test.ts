// The read pool's check (src/db/read-pool.ts): only the read-only reports read from it — the CSV
// exports, an event's analytics, the GSTR-1 summary, the audit log and the dashboard's activity page — and nothing
// that decides (seats, payments, the door, the booking lifecycle, balances, the waitlist) ever
// does, since a replica is behind and reading seats from it would oversell. The real tree passes;
// a planted use in a module that decides fails, however it is spelled.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

/** The files that may read from the read pool, each a report that only reads. */
export const READERS = new Set([
  'src/db/read-pool.ts',
  'src/deps.ts',
  'src/module-deps.ts',
  'src/app.ts',
  'src/modules/exports/exports.service.ts',
  'src/modules/exports/gst-documents.service.ts',
  'src/modules/audit/routes/list-audit-log.ts',
  'src/modules/events/routes/get-analytics.ts',
  'src/modules/gst/routes/get-gstr1-summary.ts',
  'src/dashboard/pages/activity.routes.ts',
  'src/dashboard/pages/exports.routes.ts',
  'src/dashboard/dashboard-deps.ts',
]);

/**
 * A use of the read pool: its handle (`x.reads`, `x['reads']`, `{ reads } =`, `reads.db`), its type,
 * its opener or its file. (The word "reads" in a sentence is none of these.)
 */
const USE =
  /\.\s*reads\b|\[\s*['"`]reads['"`]\s*\]|\{[^}]*\breads\b[^}]*\}\s*=|\breads\s*\.\s*db\b|\bReadPool\b|\bopenReadPool\b|read-pool\.js/;

/** The types that say where a module's reports read may name the pool; nothing else there may. */
const DEPS_TYPES = new Set([
  'src/modules/exports/exports.service.ts',
  'src/modules/audit/routes/list-audit-log.ts',
  'src/modules/events/events.deps.ts',
  'src/modules/gst/routes/gst-shared.ts',
]);

/** The files (relative paths) that mention the read pool but may not. */
export function strayReads(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    if (READERS.has(path) || DEPS_TYPES.has(path)) continue;
    const code = text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    if (USE.test(code)) out.push(path);
  }
  return out.sort();
}

function sources(dir: string, root = dir, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, root, out);
    else if (name.endsWith('.ts')) out.set(join('src', relative(root, p)), readFileSync(p, 'utf8'));
  }
  return out;
}

test('only the read-only reports read from the read pool', () => {
  assert.deepEqual(strayReads(sources(join(process.cwd(), 'src'))), []);
});

test('a module that decides reading from the read pool fails the check, however it is written', () => {
  const planted = new Map([
    [
      'src/modules/seat-holds/hold-seats.service.ts',
      'const taken = await repo.takenSeatIds(deps.reads.db, s, now);',
    ],
    ['src/modules/payments/refund.ts', "import type { ReadPool } from '../../db/read-pool.js';"],
    [
      'src/modules/checkin/door.service.ts',
      'const { reads } = deps;\nconst row = await reads.db.selectFrom("x");',
    ],
    ['src/modules/registrations/endings.ts', 'const db = deps["reads"].db;'],
    ['src/modules/ledger/balance.ts', '// reads from the primary only\nconst ok = 1;'],
  ]);
  assert.deepEqual(strayReads(planted), [
    'src/modules/checkin/door.service.ts',
    'src/modules/payments/refund.ts',
    'src/modules/registrations/endings.ts',
    'src/modules/seat-holds/hold-seats.service.ts',
  ]);
});
