#!/usr/bin/env node
// `npm test`: checks that RELIABILITY.md and the docs are current (below), lints, type-checks, then runs every test
// file with Node's test runner on the embedded database (the PostgreSQL server the service runs
// in its DATA_DIR), and again on the PostgreSQL server at TEST_DATABASE_URL when it is set.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkReliability } from './check-reliability.mjs';

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
// A whole run that finds fewer test files than the floor kept in the repository fails: a
// moved folder or a broken pattern must not pass by running less. Raise the floor with new files.
const { minTestFiles, minTestsRun, reliabilityCheck, docsCheck } = JSON.parse(
  readFileSync(new URL('./test-floor.json', import.meta.url), 'utf8'),
);
if (only.length === 0 && all.length < minTestFiles) {
  console.error(
    `found ${all.length} test files under test/, fewer than the floor of ${minTestFiles} in scripts/test-floor.json`,
  );
  process.exit(1);
}
// A whole run first checks that RELIABILITY.md ran on the money paths' current code
// (scripts/check-reliability.mjs). While `reliabilityCheck` in scripts/test-floor.json is false
// the verdict is printed and does not fail the run.
if (only.length === 0) {
  const { ok, message } = checkReliability();
  if (ok) console.log(message);
  else if (reliabilityCheck === true) {
    console.error(message);
    process.exit(1);
  } else console.log(`${message}\n(not failing the run: reliabilityCheck is off in scripts/test-floor.json)`);
}
// A whole run checks the docs (scripts/check-docs.mjs): the generated reference pages are what
// `npm run docs` writes now, and no relative link in README.md or docs/ points at nothing. It
// fails the run while `docsCheck` in scripts/test-floor.json is true, as it is.
if (only.length === 0) {
  const docs = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-docs.mjs'], {
    stdio: 'inherit',
  });
  if (docs.status !== 0) {
    if (docsCheck !== false) process.exit(docs.status ?? 1);
    console.log('(not failing the run: docsCheck is off in scripts/test-floor.json)');
  }
}
// The linter and the formatter (Biome, biome.json): unused imports and variables, promises left
// floating; and every file shaped as `npm run format` shapes it (this checks, it does not write).
if (only.length === 0) {
  const lint = spawnSync('npx', ['biome', 'lint', '.'], { stdio: 'inherit' });
  if (lint.status !== 0) process.exit(lint.status ?? 1);
  const format = spawnSync('npx', ['biome', 'format', '.'], { stdio: 'inherit' });
  if (format.status !== 0) {
    console.error('files are not formatted: run `npm run format`');
    process.exit(format.status ?? 1);
  }
}
const tsc = spawnSync('npx', ['tsc', '-p', 'test/tsconfig.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// A whole run on both storages spends each slow file where it proves something: the browser tests
// drive pages (the same HTTP routes run on both storages in their own tests), so they run on the
// embedded database only; the 100,000-row export memory test measures the service's streaming,
// not the storage, the short fuzz run the routes' handling of hostile input (both storages are
// PostgreSQL servers, which refuse the same bytes), and the short drop simulation and size
// benchmark the waiting room's fairness and the benchmark's own loading and reading at scale
// (the same SQL on either server), so they run on PostgreSQL only. Files named on the command
// line run on both.
// The unit tests (test/unit/) and the architecture checks (test/architecture/) touch no storage
// at all: pure rules and the source itself; a second pass would prove nothing, so they run on
// the embedded pass only, with the browser tests.
const EMBEDDED_ONLY = (f) => ['browser', 'unit', 'architecture'].includes(f.split(/[\\/]/).at(-2));
const POSTGRES_ONLY = (f) =>
  /exports[\\/]memory\.test\.ts$/.test(f) ||
  /fuzz[\\/]fuzz\.test\.ts$/.test(f) ||
  /waiting-room[\\/]drop-sim\.test\.ts$/.test(f) ||
  /bench[\\/]size-bench\.test\.ts$/.test(f);
const both = only.length > 0 || !process.env.TEST_DATABASE_URL;
const runs = [
  {
    name: 'the embedded database',
    storage: 'embedded',
    env: { TEST_DB: 'embedded' },
    files: both ? all : all.filter((f) => !POSTGRES_ONLY(f)),
  },
];
if (process.env.TEST_DATABASE_URL) {
  runs.push({
    name: 'PostgreSQL at TEST_DATABASE_URL',
    storage: 'postgres',
    env: { TEST_DB: 'postgres' },
    files: only.length > 0 ? all : all.filter((f) => !EMBEDDED_ONLY(f)),
  });
} else {
  console.log('TEST_DATABASE_URL is not set: the PostgreSQL pass is skipped.');
}

// One migrated embedded cluster per run, copied into each in-process test server's fresh DATA_DIR.
const template = mkdtempSync(join(tmpdir(), 'svc-template-'));
chmodSync(template, 0o711);
const made = spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/embedded-template.ts', template], {
  stdio: 'inherit',
});
if (made.status !== 0) process.exit(made.status ?? 1);
runs[0].env.TEST_EMBEDDED_TEMPLATE = join(template, 'db');
// And one migrated PostgreSQL database, which each test asking for a database of its own copies.
let pgTemplate;
if (runs.some((r) => r.storage === 'postgres' && r.files.length > 0)) {
  pgTemplate = `${new URL(process.env.TEST_DATABASE_URL).pathname.slice(1)}_template`;
  const pgMade = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'test/helpers/postgres-template.ts', process.env.TEST_DATABASE_URL, pgTemplate],
    { stdio: 'inherit' },
  );
  if (pgMade.status !== 0) process.exit(pgMade.status ?? 1);
  runs.find((r) => r.storage === 'postgres').env.TEST_POSTGRES_TEMPLATE = pgTemplate;
}

// A whole run also counts the tests that ran (passed or failed; skipped and todo ones aside) on
// each storage, from a TAP copy of the run's report: fewer than `minTestsRun` in
// scripts/test-floor.json fails the run, so a file whose tests stop registering (a describe
// that throws while loading, a filter left behind) cannot pass by running less. Raise the
// floor with new tests.
let failed = false;
for (const run of runs) {
  if (run.files.length === 0) continue;
  console.log(`\n=== tests on ${run.name} ===`);
  const tap = join(template, `${run.storage}.tap`);
  const r = spawnSync(
    process.execPath,
    [
      // The TypeScript sources run through test/helpers/ts-hooks.mjs (esbuild on Node's
      // synchronous module hooks, each file transformed once a run): loading the service
      // under tsx's off-thread hooks was the largest fixed cost of every test file.
      '--import',
      './test/helpers/ts-hooks.mjs',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...run.files,
    ],
    { stdio: 'inherit', env: { ...process.env, ...run.env, TS_HOOKS_CACHE: join(template, 'ts') } },
  );
  if (r.status !== 0) failed = true;
  const totals = Object.fromEntries(
    [...readFileSync(tap, 'utf8').matchAll(/^# (tests|skipped|todo) (\d+)$/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]),
  );
  const ran = (totals.tests ?? 0) - (totals.skipped ?? 0) - (totals.todo ?? 0);
  const floor = minTestsRun?.[run.storage] ?? 0;
  console.log(`${ran} tests ran on ${run.name}${only.length === 0 ? ` (floor ${floor})` : ''}`);
  if (only.length === 0 && ran < floor) {
    console.error(
      `${ran} tests ran on ${run.name}, fewer than the floor of ${floor} in scripts/test-floor.json`,
    );
    failed = true;
  }
}
rmSync(template, { recursive: true, force: true });
if (pgTemplate) {
  const admin = new URL(process.env.TEST_DATABASE_URL);
  admin.pathname = '/postgres';
  spawnSync('psql', [admin.toString(), '-qc', `drop database if exists "${pgTemplate}" with (force)`], {
    stdio: 'inherit',
  });
}
process.exit(failed ? 1 : 0);
