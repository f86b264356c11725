// RELIABILITY.md is evidence about one commit's code: scripts/check-reliability.mjs (a step of
// `npm test`) fails once a file of the money paths changed after the commit the file names.
// Each case is a git repository of its own in a temporary directory, and the script runs there
// as `npm run check:reliability` runs it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-reliability.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MONEY = [
  'payments',
  'registrations',
  'ledger',
  'payouts',
  'memberships',
  'reconciliation',
  'gst',
  'statements',
];
// The row test/reliability/reliability.ts writes in RELIABILITY.md's header.
const COMMIT_ROW = /^\| commit \| `[0-9a-f]{7,40}`.*\|$/m;

// Commits made here do not depend on the machine's git configuration.
const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.in',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.in',
};

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  }).trim();
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function commit(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

function reliabilityMd(sha: string, note = ''): string {
  return [
    '# Reliability',
    '',
    '| | |',
    '|---|---|',
    '| machine | test |',
    `| commit | \`${sha}\`${note} |`,
    '',
    '## What a run does',
    '',
  ].join('\n');
}

/** A repository whose first commit (A) holds files in every money path and one outside them. */
function repository(): { dir: string; a: string } {
  const dir = mkdtempSync(join(tmpdir(), 'reliability-check-'));
  dirs.push(dir);
  git(dir, 'init', '-q');
  for (const m of MONEY) {
    write(dir, `src/modules/${m}/${m}.service.ts`, `export const ${m} = 1;\n`);
    write(dir, `src/modules/${m}/${m}.repo.ts`, `export const ${m}Repo = 1;\n`);
  }
  write(dir, 'src/modules/events/events.service.ts', 'export const events = 1;\n');
  write(dir, 'README.md', '# A service\n');
  return { dir, a: commit(dir, 'A') };
}

function check(dir: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd: dir, env, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the RELIABILITY.md staleness check', () => {
  it('fails when a file of a money path changed after the commit RELIABILITY.md names, listing the files', () => {
    const { dir, a } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd(a));
    commit(dir, 'the reliability run of A');
    assert.equal(check(dir).status, 0, check(dir).output);

    write(dir, 'src/modules/payments/x.ts', 'export const x = 2;\n');
    write(dir, 'src/modules/gst/gst.service.ts', 'export const gst = 2;\n');
    git(dir, 'rm', '-q', 'src/modules/ledger/ledger.service.ts');
    write(dir, 'README.md', '# A service, changed\n');
    commit(dir, 'B');
    const { status, output } = check(dir);
    assert.equal(status, 1, output);
    assert.match(
      output,
      /RELIABILITY\.md is stale: it ran on commit [0-9a-f]{12}, and 3 files of the money paths changed/,
    );
    for (const f of [
      'src/modules/payments/x.ts',
      'src/modules/gst/gst.service.ts',
      'src/modules/ledger/ledger.service.ts',
    ])
      assert.ok(output.includes(`  ${f}\n`), `${f} is listed:\n${output}`);
    assert.ok(!output.includes('README.md\n'), output);
  });

  it('passes when only files outside the money paths changed', () => {
    const { dir, a } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd(a));
    commit(dir, 'the reliability run of A');
    write(dir, 'README.md', '# A service, changed\n');
    write(dir, 'src/modules/events/events.service.ts', 'export const events = 2;\n');
    write(dir, 'src/payments-notes.md', 'not under src/modules/payments/\n');
    commit(dir, 'B');
    const { status, output } = check(dir);
    assert.equal(status, 0, output);
    assert.match(output, /RELIABILITY\.md is current/);
  });

  it('looks at committed files only: an uncommitted edit of a money file does not make it stale', () => {
    const { dir, a } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd(a));
    commit(dir, 'the reliability run of A');
    write(dir, 'src/modules/payments/payments.service.ts', 'export const payments = 2;\n');
    assert.equal(check(dir).status, 0);
  });

  it('fails when the run had uncommitted changes', () => {
    const { dir, a } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd(a, ' (with uncommitted changes)'));
    commit(dir, 'the reliability run of A');
    const { status, output } = check(dir);
    assert.equal(status, 1, output);
    assert.match(output, /with uncommitted changes/);
  });

  it('fails when RELIABILITY.md is missing or names no commit', () => {
    const { dir } = repository();
    assert.match(check(dir).output, /RELIABILITY\.md is missing/);
    write(dir, 'RELIABILITY.md', '# Reliability\n\nno header table\n');
    commit(dir, 'B');
    const { status, output } = check(dir);
    assert.equal(status, 1, output);
    assert.match(output, /0 `\| commit \|/);
  });

  it('fails when the commit RELIABILITY.md names is not in the repository', () => {
    const { dir } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd('4ad475f4a2bc2e6a9878850c3be3c8d956b92bcc'));
    commit(dir, 'B');
    const { status, output } = check(dir);
    assert.equal(status, 1, output);
    assert.match(
      output,
      /names commit 4ad475f4a2bc2e6a9878850c3be3c8d956b92bcc, which is not in this repository/,
    );
  });

  it('fails on a shallow clone that lacks the commit, saying the clone is shallow', () => {
    const { dir, a } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd(a));
    commit(dir, 'the reliability run of A');
    write(dir, 'README.md', '# A service, changed\n');
    commit(dir, 'C');
    const shallow = mkdtempSync(join(tmpdir(), 'reliability-check-shallow-'));
    dirs.push(shallow);
    git(shallow, 'clone', '-q', '--depth', '1', `file://${dir}`, 'clone');
    const { status, output } = check(join(shallow, 'clone'));
    assert.equal(status, 1, output);
    assert.match(output, /the clone is shallow/);
    assert.match(output, /git fetch --unshallow/);
  });

  it('fails when a money path is gone from HEAD, so a moved folder cannot leave nothing checked', () => {
    const { dir, a } = repository();
    write(dir, 'RELIABILITY.md', reliabilityMd(a));
    git(dir, 'rm', '-q', '-r', 'src/modules/payouts');
    commit(dir, 'B');
    const { status, output } = check(dir);
    assert.equal(status, 1, output);
    assert.match(output, /money paths are not in HEAD: src\/modules\/payouts\//);
  });

  it("on a copy of this repository's money paths and RELIABILITY.md: a planted change to a money file fails it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-check-copy-'));
    dirs.push(dir);
    const tree = execFileSync(
      'git',
      ['archive', '--format=tar', 'HEAD', '--', 'src/modules', 'RELIABILITY.md'],
      { cwd: REPO, env, maxBuffer: 1 << 28 },
    );
    execFileSync('tar', ['-x', '-C', dir], { input: tree });
    git(dir, 'init', '-q');
    const a = commit(dir, 'A');
    const real = readFileSync(join(dir, 'RELIABILITY.md'), 'utf8');
    assert.equal(
      real.match(new RegExp(COMMIT_ROW.source, 'gm'))?.length,
      1,
      "this repository's RELIABILITY.md has one commit row",
    );
    write(dir, 'RELIABILITY.md', real.replace(COMMIT_ROW, `| commit | \`${a}\` |`));
    commit(dir, 'the reliability run of A');
    assert.equal(check(dir).status, 0, check(dir).output);

    write(dir, 'src/modules/events/planted.ts', 'export const notMoney = 1;\n');
    commit(dir, 'a change outside the money paths');
    assert.equal(check(dir).status, 0, check(dir).output);

    const fees = join(dir, 'src/modules/payments/fees.ts');
    writeFileSync(fees, `${readFileSync(fees, 'utf8')}\nexport const planted = 1;\n`);
    commit(dir, 'a planted change to a money file');
    const { status, output } = check(dir);
    assert.equal(status, 1, output);
    assert.match(
      output,
      /RELIABILITY\.md is stale: it ran on commit [0-9a-f]{12}, and 1 file of the money paths changed/,
    );
    assert.ok(output.includes('  src/modules/payments/fees.ts\n'), output);
  });
});
