// `npm run failover`: the failover of test/failover/failover.ts FAILOVER_RUNS times in a row
// (default 3), each on a fresh cluster (etcd, two Patroni nodes, HAProxy, three instances);
// it fails at the first run that breaks a promise. The service is built first (`npm run build`)
// and run as `npm start` runs it (`node dist/server.js`). FAILOVER_CALLERS changes the load.
import { execFileSync } from 'node:child_process';
import { BACK_WITHIN_MS, runFailover, type FailoverFigures } from './failover.js';
import { ensurePackages } from './ha-cluster.js';

const runs = Number(process.env.FAILOVER_RUNS ?? 3);
const callers = Number(process.env.FAILOVER_CALLERS ?? 24);
const log = (line: string) => console.log(`  ${line}`);

ensurePackages(log);
execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
const all: FailoverFigures[] = [];
for (let i = 1; i <= runs; i++) {
  console.log(`failover ${i} of ${runs}: three instances through HAProxy, the primary's machine killed`);
  const f = await runFailover({ callers, log });
  console.log(JSON.stringify({ ...f, violations: f.violations.slice(0, 20) }, null, 2));
  all.push(f);
  if (f.violations.length > 0) break;
}
const ok = all.length === runs && all.every((f) => f.violations.length === 0);
console.log(
  ok
    ? `failover: ${runs} runs in a row, 0 acknowledged writes lost (bookings, paid confirmations, admits), every instance answering again within ${BACK_WITHIN_MS / 1000} s`
    : 'failover: FAILED',
);
process.exit(ok ? 0 : 1);
