// `npm run bench`: every benchmark in turn, each on its own fresh database.
import { spawnSync } from 'node:child_process';

for (const script of ['bench/embedded.ts', 'bench/register.ts', 'bench/checkin.ts']) {
  console.log(`\n=== ${script} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
