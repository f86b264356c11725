#!/usr/bin/env node
// `npm run fuzz`: the long fuzz (test/fuzz/), three runs with three fresh seeds, 10,000
// requests each (FUZZ_REQUESTS) and the deep-nesting ladder on 12 JSON routes chosen by the seed
// (FUZZ_DEEP_ROUTES=<n> or all), on the
// embedded database, or on PostgreSQL with TEST_DB=postgres and TEST_DATABASE_URL.
// Each run prints its seed. FUZZ_SEED=<n> replays one run; FUZZ_SEEDS=a,b,c replays several;
// FUZZ_RUNS sets how many fresh seeds; FUZZ_VERBOSE=1 lists the routes as they go.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const given = process.env.FUZZ_SEEDS ?? process.env.FUZZ_SEED;
const seeds = given
  ? given.split(',').map((s) => Number(s.trim()))
  : Array.from({ length: Number(process.env.FUZZ_RUNS ?? 3) }, () => randomInt(1, 2 ** 31 - 1));
if (seeds.some((s) => !Number.isSafeInteger(s))) {
  console.error(`not a seed: ${given}`);
  process.exit(2);
}

const results = [];
for (const seed of seeds) {
  console.log(`\n=== fuzz run with FUZZ_SEED=${seed} ===`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/fuzz/fuzz.test.ts'],
    {
      stdio: 'inherit',
      env: { FUZZ_REQUESTS: '10000', FUZZ_LONG: '1', ...process.env, FUZZ_SEED: String(seed) },
    },
  );
  results.push({ seed, ok: r.status === 0 });
}
console.log(`\nfuzz: ${results.map((r) => `seed ${r.seed} ${r.ok ? 'passed' : 'FAILED'}`).join(', ')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
