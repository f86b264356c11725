// The docs check (scripts/check-docs.mjs, a step of `npm test`): it fails on a relative link or
// anchor that points at nothing and on a generated reference page that differs from what
// `npm run docs` writes now, and passes on this repository. The generator
// (scripts/docs-reference.mjs) refuses to draw the configuration page when a setting the code
// reads is not described, or when a written default disagrees with the code's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
// @ts-expect-error a plain .mjs script without types
import { anchors, checkDocs } from '../../scripts/check-docs.mjs';
// @ts-expect-error a plain .mjs script without types
import { configurationPage, generateReferencePages } from '../../scripts/docs-reference.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

type Verdict = { ok: boolean; problems: string[] };
const check = (root: string, pages: Map<string, string> = new Map()): Verdict => checkDocs(root, pages);

const GOOD = {
  'README.md':
    '# A service\n\nSee [the guide](docs/guides/a.md), [its part](docs/guides/a.md#part-two) and [b](docs/b.md).\n',
  'docs/guides/a.md': '# A guide\n\n## Part `two`\n\nBack to [the README](../../README.md#a-service).\n',
  'docs/b.md':
    '# B\n\n```md\n[not a link](nowhere.md)\n```\n\nA span `[not a link](nowhere.md)` and [a site](https://example.com/x).\n',
};

describe('the docs check', () => {
  it('passes when every relative link and anchor is found (code blocks, code spans and other sites left alone)', () => {
    assert.deepEqual(check(tree(GOOD)), { ok: true, problems: [] });
  });

  it('fails on a link to a file that does not exist, naming the file and line', () => {
    const root = tree({ ...GOOD, 'docs/b.md': '# B\n\nSee [the old page](guides/gone.md).\n' });
    const { ok, problems } = check(root);
    assert.equal(ok, false);
    assert.deepEqual(problems, [
      'docs/b.md:3: the link guides/gone.md points at docs/guides/gone.md, which does not exist',
    ]);
  });

  it('fails on an anchor the target file has no heading for, and on one in the same file', () => {
    const root = tree({
      ...GOOD,
      'README.md': '# A service\n\n[x](docs/guides/a.md#part-three) [y](#nowhere) [z](#a-service)\n',
    });
    const { ok, problems } = check(root);
    assert.equal(ok, false);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0]!, /README\.md:3: the link docs\/guides\/a\.md#part-three names #part-three/);
    assert.match(problems[1]!, /README\.md:3: the link #nowhere names #nowhere/);
  });

  it('fails on a generated page that differs from what the generator writes now, or is missing', () => {
    const root = tree({ ...GOOD, 'docs/reference/errors.md': '# Error codes\n\nas it was\n' });
    const fresh = new Map([
      ['docs/reference/errors.md', '# Error codes\n\nas the code says now\n'],
      ['docs/reference/configuration.md', '# Configuration\n'],
    ]);
    const { ok, problems } = check(root, fresh);
    assert.equal(ok, false);
    assert.deepEqual(problems, [
      'docs/reference/errors.md is stale: it differs from what `npm run docs` writes now; run it and commit the page',
      'docs/reference/configuration.md is missing: run `npm run docs` and commit it',
    ]);
    assert.equal(
      check(root, new Map([['docs/reference/errors.md', '# Error codes\n\nas it was\n']])).ok,
      true,
    );
  });

  it('makes anchors as GitHub does: lower case, punctuation dropped, repeats numbered', () => {
    const found = anchors("# The door's fast path\n\n## `npm run bench`: how\n\n## Notes\n\n## Notes\n");
    assert.deepEqual([...found], ['the-doors-fast-path', 'npm-run-bench-how', 'notes', 'notes-1']);
  });

  it('passes on this repository, in process and as `npm run check:docs` runs it', async () => {
    const verdict = check(REPO, await generateReferencePages(REPO));
    assert.deepEqual(verdict, { ok: true, problems: [] });
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-docs.mjs'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr + run.stdout);
  });
});

describe('the configuration page is drawn from the code', () => {
  const READS = [
    'type Env = Record<string, string | undefined>;',
    'const str = (env: Env, name: string) => env[name];',
    'const int = (env: Env, name: string, fallback: number, min: number, max: number) => Math.min(max, Math.max(min, Number(env[name] ?? fallback)));',
    "export const loadConfig = (env: Env) => ({ port: int(env, 'PORT', 3_000, 0, 65_535), host: str(env, 'HOST') ?? '127.0.0.1' });",
    '',
  ].join('\n');
  const settings = (entries: string) =>
    `export const SETTING_GROUPS = [{ title: 'Listening', settings: [${entries}] }];\n`;

  it('lists each setting with its default, the values the code accepts and its meaning', async () => {
    const root = tree({
      'src/config.ts': READS,
      'src/config-settings.ts': settings("[['PORT', 'HOST'], '`3000` / `127.0.0.1`', 'where it listens']"),
    });
    const page: string = await configurationPage(root);
    assert.match(
      page,
      /\| `PORT`, `HOST` \| `3000` \/ `127\.0\.0\.1` \| `PORT`: a whole number from 0 to 65,535; `HOST`: text \| where it listens \|/,
    );
  });

  it('refuses a setting the code reads that has no description, and one described that nothing reads', async () => {
    const root = tree({
      'src/config.ts': READS,
      'src/config-settings.ts': settings("[['PORT', 'HOSTNAME'], '`3000`', 'where it listens']"),
    });
    await assert.rejects(configurationPage(root), (err: Error) => {
      assert.match(err.message, /describes HOSTNAME, which no code under src\/ reads/);
      assert.match(
        err.message,
        /HOST is read by src\/config\.ts but not described in src\/config-settings\.ts/,
      );
      return true;
    });
  });

  it('refuses a written default that disagrees with the literal default in the code', async () => {
    const root = tree({
      'src/config.ts': READS,
      'src/config-settings.ts': settings("[['PORT', 'HOST'], '`8080` / `127.0.0.1`', 'where it listens']"),
    });
    await assert.rejects(
      configurationPage(root),
      /PORT: the code's default is 3000, but src\/config-settings\.ts says/,
    );
  });
});
