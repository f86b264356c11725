// Planted faults: evidence that the reconciliation run's checks guard the money. For each
// patch under test/reliability/faults/, the working tree is copied to a scratch directory
// (node_modules symlinked), the patch applied there, and a short reconciliation run made
// in the copy, in racing mode (racing.ts: fault d, a refund made before its claim, shows
// only when two requests for one booking overlap); the run must end with mismatches (exit
// non-zero). The working tree itself is never touched.
//   node --import tsx test/reliability/planted-faults.ts
// PLANTED_OPS (default 150) and PLANTED_SEED (default 11) set the runs; PLANTED_JSON=<file>
// writes the results as JSON. Exits 0 only if every planted fault was caught.
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunFigures } from './driver.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FAULTS = join(REPO, 'test/reliability/faults');
const operations = Number(process.env.PLANTED_OPS ?? 150);
const seed = Number(process.env.PLANTED_SEED ?? 11);

export interface PlantedResult {
  fault: string;
  description: string;
  exitCode: number | null;
  mismatches: number;
  firstMismatches: string[];
  caught: boolean;
}

function copyTree(to: string): void {
  // Tracked files and new ones not ignored: the working tree as it is now.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    try {
      copyFileSync(join(REPO, f), join(to, f));
    } catch {
      // listed but deleted in the working tree
    }
  }
  symlinkSync(join(REPO, 'node_modules'), join(to, 'node_modules'));
}

function run(cwd: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/reliability/reconcile-run.ts'], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => res(code));
  });
}

export async function plantFaults(log: (line: string) => void = console.log): Promise<PlantedResult[]> {
  const results: PlantedResult[] = [];
  for (const patch of readdirSync(FAULTS)
    .filter((f) => f.endsWith('.patch'))
    .sort()) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-planted-'));
    try {
      copyTree(dir);
      execFileSync('git', ['apply', join(FAULTS, patch)], { cwd: dir });
      const description =
        /PLANTED FAULT \([a-z]\): (.*)$/m.exec(readFileSync(join(FAULTS, patch), 'utf8'))?.[1] ?? patch;
      log(`planted fault ${patch}: ${description}`);
      const json = join(dir, 'figures.json');
      const exitCode = await run(dir, {
        RECONCILE_OPS: String(operations),
        RECONCILE_SEED: String(seed),
        RECONCILE_RACING: '1',
        RECONCILE_JSON: json,
      });
      let figures: RunFigures | undefined;
      try {
        figures = JSON.parse(readFileSync(json, 'utf8')) as RunFigures;
      } catch {
        figures = undefined;
      }
      const mismatches = figures?.mismatches.length ?? 0;
      const caught = exitCode !== 0 && mismatches > 0;
      results.push({
        fault: patch.replace(/\.patch$/, ''),
        description,
        exitCode,
        mismatches,
        firstMismatches: figures?.mismatches.slice(0, 5) ?? [],
        caught,
      });
      log(`  ${caught ? 'caught' : 'NOT CAUGHT'}: exit ${exitCode}, ${mismatches} mismatches`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = await plantFaults();
  if (process.env.PLANTED_JSON) writeFileSync(process.env.PLANTED_JSON, JSON.stringify(results, null, 2));
  process.exit(results.length > 0 && results.every((r) => r.caught) ? 0 : 1);
}
