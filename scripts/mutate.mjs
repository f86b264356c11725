#!/usr/bin/env node
// `npm run mutate`: mutation testing of the pure money and seat rules with StrykerJS
// (stryker.config.json lists the files it mutates and the unit test files it runs), then
// a summary from Stryker's JSON report: `.tmp/mutation/summary.json` and a table.
// Exits non-zero when the mutation score is below the floor, `thresholds.break` in
// stryker.config.json. Extra arguments go to `stryker run` (e.g. `-- --mutate src/lib/money.ts`).
//
// Score as Stryker counts it: (killed + timeout) / (killed + timeout + survived + noCoverage).
// Mutants that do not compile or crash the runner, and those disabled by a
// `// Stryker disable` comment with its reason, are not valid mutants and do not count.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const corePackage = require.resolve('@stryker-mutator/core/package.json');
const version = JSON.parse(readFileSync(corePackage, 'utf8')).version;
const config = JSON.parse(readFileSync('stryker.config.json', 'utf8'));
const floor = config.thresholds.break;
const reportFile = config.jsonReporter.fileName;
const summaryFile = join(dirname(reportFile), 'summary.json');

rmSync(reportFile, { force: true });
rmSync(summaryFile, { force: true });
mkdirSync(dirname(reportFile), { recursive: true });

const started = process.hrtime.bigint();
const run = spawnSync(
  process.execPath,
  [join(dirname(corePackage), 'bin', 'stryker.js'), 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
const durationSeconds = Math.round(Number(process.hrtime.bigint() - started) / 1e8) / 10;

let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch {
  console.error(`mutate: Stryker wrote no report (${reportFile}); exit ${run.status}`);
  process.exit(run.status || 1);
}

const KEYS = {
  Killed: 'killed',
  Survived: 'survived',
  Timeout: 'timeout',
  NoCoverage: 'noCoverage',
  CompileError: 'errors',
  RuntimeError: 'errors',
  Ignored: 'ignored',
};
const empty = () => ({ killed: 0, survived: 0, timeout: 0, noCoverage: 0, errors: 0, ignored: 0 });
const score = (c) => {
  const valid = c.killed + c.timeout + c.survived + c.noCoverage;
  return valid === 0 ? 100 : Math.round(((c.killed + c.timeout) / valid) * 10000) / 100;
};

const totals = empty();
const files = [];
const survivors = [];
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const c = empty();
  for (const m of mutants) {
    const key = KEYS[m.status];
    if (!key) throw new Error(`mutate: unexpected mutant status ${m.status} in ${file}`);
    c[key]++;
    totals[key]++;
    if (m.status === 'Survived' || m.status === 'NoCoverage') {
      survivors.push({
        file,
        line: m.location.start.line,
        status: m.status,
        mutator: m.mutatorName,
        replacement: m.replacement ?? null,
      });
    }
  }
  files.push({
    file,
    score: score(c),
    killed: c.killed,
    survived: c.survived,
    timeout: c.timeout,
    noCoverage: c.noCoverage,
    total: c.killed + c.survived + c.timeout + c.noCoverage,
    ignored: c.ignored,
    errors: c.errors,
  });
}

const summary = {
  tool: `StrykerJS ${version}`,
  scoreDefinition:
    '(killed + timeout) / (killed + timeout + survived + noCoverage); total counts those valid mutants; ignored (disabled with a reason) and errors (compile or runtime errors) are not counted',
  floor,
  files,
  score: score(totals),
  killed: totals.killed,
  survived: totals.survived,
  timeout: totals.timeout,
  noCoverage: totals.noCoverage,
  total: totals.killed + totals.survived + totals.timeout + totals.noCoverage,
  ignored: totals.ignored,
  errors: totals.errors,
  durationSeconds,
  survivors,
};
writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);

const pad = (v, n, left = false) => (left ? String(v).padEnd(n) : String(v).padStart(n));
const width = Math.max(...files.map((f) => f.file.length), 'all files'.length);
const line = (name, r) =>
  `${pad(name, width, true)}  ${pad(r.score.toFixed(2), 7)}  ${pad(r.killed, 6)}  ${pad(r.timeout, 7)}  ${pad(r.survived, 8)}  ${pad(r.noCoverage, 10)}  ${pad(r.total, 5)}`;
console.log(`\n${summary.tool}, ${durationSeconds} s: mutation score per file (floor ${floor} %)`);
console.log(
  `${pad('file', width, true)}  ${pad('score', 7)}  ${pad('killed', 6)}  ${pad('timeout', 7)}  ${pad('survived', 8)}  ${pad('noCoverage', 10)}  ${pad('total', 5)}`,
);
for (const f of files) console.log(line(f.file, f));
console.log(line('all files', summary));
for (const s of survivors)
  console.log(
    `  ${s.status.toLowerCase()}: ${s.file}:${s.line} ${s.mutator}${s.replacement === null ? '' : ` → ${s.replacement.replace(/\s+/g, ' ').slice(0, 60)}`}`,
  );
console.log(`summary: ${summaryFile}`);

if (summary.score < floor) {
  console.error(`mutate: the mutation score ${summary.score} % is below the floor of ${floor} %`);
  process.exit(1);
}
if (run.status !== 0) {
  console.error(`mutate: stryker exited with ${run.status}`);
  process.exit(run.status || 1);
}
