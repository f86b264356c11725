// Dependencies point one way (.dependency-cruiser.cjs): no file or folder cycles, no routes
// file importing another module's routes, nothing of test/ or bench/ in src/, and the layers
// db ← lib, jobs, config ← http ← modules ← dashboard ← app, deps, server. The real tree has no violation
// beyond the known ones in .dependency-cruiser-known.json, and that list can only shrink: a
// listed violation that is gone fails the test until its entry is removed. Small trees with one
// violation each prove that every rule fires.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = process.cwd();
const CONFIG = resolve(ROOT, '.dependency-cruiser.cjs');
const CLI = resolve(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}
/** An allowed violation: "rule: from → to", or "no-circular: a ⇄ b ⇄ …" for a cycle of files. */
interface Known {
  violation: string;
  why: string;
}

const key = (rule: string, from: string, to: string) => `${rule}: ${from} → ${to}`;
/**
 * One line per violation. A cycle of files is reported once, from whichever of its files the
 * cruise meets first, so it is named by its files in order ("a ⇄ b"); a folder cycle is named
 * by each folder dependency on it, and any other violation by its one dependency.
 */
const describeViolation = (v: Violation) =>
  v.rule.name === 'no-circular' && v.cycle
    ? `no-circular: ${[...new Set([v.from, ...v.cycle.map((c) => c.name)])].sort().join(' ⇄ ')}`
    : key(v.rule.name, v.from, v.to);

/** The violations dependency-cruiser finds under `root`'s src/, as "rule: from → to". */
function violations(root: string): string[] {
  const run = spawnSync(process.execPath, [CLI, 'src', '--config', CONFIG, '--output-type', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  assert.ok(
    run.stdout.startsWith('{'),
    `dependency-cruiser did not run (it needs Node 22 or later; this is ${process.version}):\n${run.stderr}`,
  );
  const found = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  return [...new Set(found.map(describeViolation))].sort();
}

/** A throwaway tree with the project's tsconfig and these files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'depcruise-'));
  copyFileSync(join(ROOT, 'tsconfig.json'), join(root, 'tsconfig.json'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function violationsOf(files: Record<string, string>): string[] {
  const root = tree(files);
  try {
    return violations(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('dependencies of the real tree', () => {
  const known: Known[] = JSON.parse(
    readFileSync(join(ROOT, '.dependency-cruiser-known.json'), 'utf8'),
  ).violations;
  const listed = known.map((k) => k.violation);

  it('the allow-list names each known violation once, with a reason', () => {
    assert.equal(new Set(listed).size, listed.length, 'no entry twice');
    for (const k of known) assert.ok(k.why.length > 10, `a reason for ${k.violation}`);
  });

  it('has no violation beyond the known ones, and every known one still exists', () => {
    const found = violations(ROOT);
    const unknown = found.filter((v) => !listed.includes(v));
    const gone = listed.filter((v) => !found.includes(v));
    assert.deepEqual(
      unknown,
      [],
      'new violations of .dependency-cruiser.cjs: fix them (the list only shrinks)',
    );
    assert.deepEqual(gone, [], 'fixed: remove these entries from .dependency-cruiser-known.json');
  });
});

describe('each rule fires on a tree that breaks it', () => {
  const ok = 'export const x = 1;\n';

  it('a cycle between two files', () => {
    assert.deepEqual(
      violationsOf({
        'src/lib/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'src/lib/b.ts': "import type { a } from './a.js';\nexport const b: typeof a | 1 = 1;\n",
      }),
      ['no-circular: src/lib/a.ts ⇄ src/lib/b.ts'],
    );
  });

  it('a cycle between two modules through different files', () => {
    assert.deepEqual(
      violationsOf({
        'src/modules/one/one.service.ts':
          "import { two } from '../two/two.repo.js';\nexport const one = () => two;\n",
        'src/modules/one/one.repo.ts': ok,
        'src/modules/two/two.service.ts': "import { x } from '../one/one.repo.js';\nexport const s = x;\n",
        'src/modules/two/two.repo.ts': 'export const two = 2;\n',
        'src/modules/two/index.ts': "import { s } from './two.service.js';\nexport default s;\n",
      }),
      [
        'no-circular-folders: src/modules/one → src/modules/two',
        'no-circular-folders: src/modules/two → src/modules/one',
      ],
    );
  });

  it('a routes file importing another module’s routes file (its own module’s is fine)', () => {
    assert.deepEqual(
      violationsOf({
        'src/modules/one/one.routes.ts':
          "import { Two } from '../two/two.routes.js';\nimport { x } from './extra.routes.js';\nexport const r = [Two, x];\n",
        'src/modules/one/extra.routes.ts': ok,
        'src/modules/two/two.routes.ts': 'export const Two = 2;\n',
      }),
      ['no-routes-to-other-routes: src/modules/one/one.routes.ts → src/modules/two/two.routes.ts'],
    );
  });

  it('src importing from test/ or bench/', () => {
    assert.deepEqual(
      violationsOf({
        'src/lib/a.ts':
          "import { h } from '../../test/helpers/h.js';\nimport { b } from '../../bench/b.js';\nexport const a = [h, b];\n",
        'test/helpers/h.ts': 'export const h = 1;\n',
        'bench/b.ts': 'export const b = 1;\n',
      }),
      [
        'src-not-to-test-or-bench: src/lib/a.ts → bench/b.ts',
        'src-not-to-test-or-bench: src/lib/a.ts → test/helpers/h.ts',
      ],
    );
  });

  it('a layer importing one above it: a module the composition (even a type) or the dashboard, lib a module, lib http, db lib', () => {
    assert.deepEqual(
      violationsOf({
        'src/deps.ts': 'export interface Deps { n: number }\n',
        'src/modules/one/one.routes.ts':
          "import type { Deps } from '../../deps.js';\nexport const r = (d: Deps) => d.n;\n",
        'src/modules/one/one.service.ts': ok,
        'src/modules/one/one.view.ts': "import { p } from '../../dashboard/page.js';\nexport const v = p;\n",
        'src/dashboard/page.ts': ok,
        'src/lib/clock.ts': "import { x } from '../modules/one/one.service.js';\nexport const c = x;\n",
        'src/lib/errors.ts': ok,
        'src/lib/html.ts': "import { q } from '../http/paging.js';\nexport const h = q;\n",
        'src/http/paging.ts': ok,
        'src/db/pg.ts': "import { x } from '../lib/errors.js';\nexport const p = x;\n",
      }),
      [
        'below-modules: src/lib/clock.ts → src/modules/one/one.service.ts',
        'db-lowest: src/db/pg.ts → src/lib/errors.ts',
        'lib-below-http: src/lib/html.ts → src/http/paging.ts',
        'modules-below-composition: src/modules/one/one.routes.ts → src/deps.ts',
        'modules-below-dashboard: src/modules/one/one.view.ts → src/dashboard/page.ts',
      ],
    );
  });
});
