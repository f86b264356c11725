#!/usr/bin/env node
// `npm test`: type-checks, then runs every test file with Node's test runner on the
// embedded database, and again on PostgreSQL when TEST_DATABASE_URL is set.
// Files under test/concurrency/ need several processes on one server: PostgreSQL only.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

const only = process.argv.slice(2);
const all = only.length > 0 ? only : find('test');
const tsc = spawnSync('npx', ['tsc', '-p', 'test/tsconfig.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const runs = [{ name: 'embedded database (PGlite)', env: { TEST_DB: 'pglite' }, files: all.filter((f) => !f.includes('concurrency')) }];
if (process.env.TEST_DATABASE_URL) {
  runs.push({ name: 'PostgreSQL', env: { TEST_DB: 'postgres' }, files: all });
} else {
  console.log('TEST_DATABASE_URL is not set: the PostgreSQL pass and the cross-process tests are skipped.');
}

let failed = false;
for (const run of runs) {
  if (run.files.length === 0) continue;
  console.log(`\n=== tests on ${run.name} ===`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...run.files],
    { stdio: 'inherit', env: { ...process.env, ...run.env } },
  );
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
