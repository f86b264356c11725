// `npm run soak`: the soak (test/soak/soak.ts) three times in a row, 3 minutes each with a
// SIGKILL every 20 s. SOAK_RUNS, SOAK_SECONDS and SOAK_KILL_EVERY_SECONDS change that;
// SOAK_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// names the PostgreSQL server it creates its databases on, SOAK_REDIS_URL (else
// TEST_REDIS_URL, else redis://127.0.0.1:6379) the Redis; SOAK_JSON=<file> writes the figures.
import { writeFileSync } from 'node:fs';
import { runSoak, type SoakFigures } from './soak.js';

const runs = Number(process.env.SOAK_RUNS ?? 3);
const seconds = Number(process.env.SOAK_SECONDS ?? 180);
const killEverySeconds = Number(process.env.SOAK_KILL_EVERY_SECONDS ?? 20);
const databaseUrl =
  process.env.SOAK_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.SOAK_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const all: SoakFigures[] = [];
for (let i = 1; i <= runs; i++) {
  console.log(`soak ${i} of ${runs}: three instances, ${seconds} s, a SIGKILL every ${killEverySeconds} s`);
  const f = await runSoak({
    seconds,
    killEverySeconds,
    databaseUrl,
    redisUrl,
    seed: i,
    log: (l) => console.log(`  ${l}`),
  });
  console.log(JSON.stringify({ ...f, violations: f.violations.slice(0, 20) }, null, 2));
  all.push(f);
  if (f.violations.length > 0) break;
}
if (process.env.SOAK_JSON) writeFileSync(process.env.SOAK_JSON, JSON.stringify(all, null, 2));
const ok = all.length === runs && all.every((f) => f.violations.length === 0);
console.log(ok ? `soak: ${runs} runs in a row, no invariant broken` : 'soak: FAILED');
process.exit(ok ? 0 : 1);
