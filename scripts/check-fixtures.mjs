#!/usr/bin/env node
// Test fixtures check: a test file states its "given" through the named fixtures in test/helpers/
// (test/helpers/factories.ts and its neighbours) instead of writing it again. Per test file it finds:
// - `local-api`: a local `(method, path, …)` lambda around `call()` (use `keyApi`, `organiserWithEvent`
//   or another caller in test/helpers/);
// - `inline-event`: an event created by posting to /api/v1/events inline, outside test/events/
//   (use `createEvent` or `organiserWithEvent`);
// - `inline-payment`: a sandbox payment posted inline, outside test/sandbox/ and the sandbox's own
//   ledger tests (use `paidBooking` or `payInSandbox`);
// - `foreign-table`: a query on a table another module owns (the owners of scripts/check-ownership.mjs),
//   from a test folder that is not that module's (read or seed it through a named fixture in
//   test/helpers/ instead). A folder named after no module (concurrency/, security/ …) owns no table.
// A finding in the statement after a `// fixture-exception: <why>` comment is the test's own
// subject (a test of that very call), and is not counted.
// It reads the text (a test file is our own code, written one way), not the syntax tree.
// Usage: node scripts/check-fixtures.mjs [root]   (one line per finding; exit 1 when any)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWNERS } from './check-ownership.mjs';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const RULES = [
  {
    rule: 'local-api',
    pattern: /(?:const \w+ = (?:async )?\(|function \w+\()(?:\w+: [\w.]+, )?method: string, path: string/g,
    applies: () => true,
  },
  {
    rule: 'inline-event',
    pattern: /['"]POST['"],\s*['"`]\/api\/v1\/events['"`],/g,
    applies: (dir) => dir !== 'events',
  },
  {
    rule: 'inline-payment',
    pattern: /['"`]\/api\/v1\/sandbox\/payments['"`]/g,
    applies: (dir, file) => dir !== 'sandbox' && !file.endsWith('ledger/sandbox.test.ts'),
  },
];

// test/helpers/ holds the fixtures; test/architecture/ plants queries as text to test the checks.
const SKIPPED = new Set(['helpers', 'architecture', 'node_modules']);

const TABLE_CALL = /\.(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin)\(\s*['"](\w+)['"]/g;

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED.has(name)) out.push(...testFiles(path));
    } else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/**
 * The lines (1-based) each `// fixture-exception: <why>` comment covers: the statement after it,
 * to the line that ends it with `;` (or the one line after it when that line is an array's element
 * or an argument, ending with `,`), however the formatter broke it.
 */
function exceptedLines(lines) {
  const covered = new Set();
  lines.forEach((text, i) => {
    if (!/\/\/ fixture-exception: \S/.test(text)) return;
    for (let j = i + 1; j < lines.length; j++) {
      covered.add(j + 1);
      const t = lines[j].trimEnd();
      if (t.endsWith(';') || (j === i + 1 && t.endsWith(','))) break;
    }
  });
  return covered;
}

/** Every finding under `root`/test, as `file:line: rule: what`. */
export function checkFixtures(root = REPO_ROOT, owners = OWNERS) {
  const findings = [];
  for (const path of testFiles(join(root, 'test')).sort()) {
    const file = relative(root, path).split(sep).join('/');
    const dir = file.split('/')[1];
    const text = readFileSync(path, 'utf8');
    const covered = exceptedLines(text.split('\n'));
    const add = (index, what) => {
      const line = lineOf(text, index);
      if (!covered.has(line)) findings.push(`${file}:${line}: ${what}`);
    };
    for (const { rule, pattern, applies } of RULES) {
      if (!applies(dir, file)) continue;
      for (const m of text.matchAll(pattern)) add(m.index, rule);
    }
    for (const m of text.matchAll(TABLE_CALL)) {
      const owner = owners[m[1]];
      if (owner && owner !== dir) add(m.index, `foreign-table: ${m[1]} (${owner})`);
    }
  }
  return findings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = checkFixtures(process.argv[2] ?? REPO_ROOT);
  for (const f of findings) console.log(f);
  process.exitCode = findings.length ? 1 : 0;
}
