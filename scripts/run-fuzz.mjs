#!/usr/bin/env node
// `npm run fuzz`: the long OpenAPI-driven fuzz run (10,000 requests unless FUZZ_REQUESTS
// says otherwise) on the embedded database, or on PostgreSQL with TEST_DB=postgres and
// TEST_DATABASE_URL. FUZZ_SEED replays a run; FUZZ_VERBOSE=1 lists the operations.
import { spawnSync } from 'node:child_process';

const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/fuzz/fuzz.test.ts'], {
  stdio: 'inherit',
  env: { FUZZ_REQUESTS: '10000', ...process.env },
});
process.exit(r.status ?? 1);
