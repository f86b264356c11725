// `npm run failover:fault`: the failover run's planted fault, showing its checks can fail. The
// cluster replicates asynchronously and promotes a standby however far behind it is; the
// standby's WAL receiver is frozen for a few seconds before the primary's machine dies (and killed
// with it, so the WAL it held unread dies with the link), so the
// bookings acknowledged in those seconds exist only on the dead node. The run passes only when
// the failover's checks report those acknowledged bookings as lost (the promise that
// synchronous replication keeps in `npm run failover`).
import { execFileSync } from 'node:child_process';
import { runFailover } from './failover.js';
import { ensurePackages } from './ha-cluster.js';

const log = (line: string) => console.log(`  ${line}`);
ensurePackages(log);
execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
console.log('failover with a planted fault: asynchronous replication, the standby 3 s behind at the kill');
const f = await runFailover({ callers: 12, fault: { lagMs: 3_000 }, log });
console.log(JSON.stringify({ ...f, violations: f.violations.slice(0, 20) }, null, 2));
const caught = f.lost > 0 && f.violations.some((v) => /acknowledged bookings missing/.test(v));
console.log(
  caught
    ? `failover:fault: the planted fault was caught (${f.lost} acknowledged bookings reported lost)`
    : 'failover:fault: FAILED, the planted fault went unnoticed',
);
process.exit(caught ? 0 : 1);
