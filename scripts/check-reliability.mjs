#!/usr/bin/env node
// `npm run check:reliability`: RELIABILITY.md is evidence about the code of the commit it ran on
// (its `| commit | ... |` row, written by test/reliability/reliability.ts). This fails when a file
// of the money paths differs between that commit and HEAD, so the evidence cannot outlive the
// code it was about. Committed files only: HEAD is what CI tests and what a release ships;
// uncommitted edits are not looked at.
//
// It also fails, saying why, when it cannot tell: no RELIABILITY.md or no single commit row, a
// run made with uncommitted changes (it then showed no commit's code), not a git work tree, a
// money path missing at HEAD (a moved folder must not leave the check guarding nothing), or a
// commit that this clone does not have. A shallow clone lacks the history to compare against
// and fetching is no business of a test run, so that fails too, naming `git fetch --unshallow`;
// CI (.ci/run) works on a full clone.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The code that decides money (docs/decisions/22-figures-and-evidence.md). */
export const MONEY_PATHS = [
  'payments',
  'registrations',
  'ledger',
  'payouts',
  'memberships',
  'reconciliation',
  'gst',
  'statements',
].map((m) => `src/modules/${m}/`);

const COMMIT_ROW = /^\|\s*commit\s*\|\s*`([0-9a-f]{7,40})`(.*)\|\s*$/;

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function tryGit(cwd, ...args) {
  try {
    return git(cwd, ...args);
  } catch {
    return undefined;
  }
}

/** The verdict for the work tree holding `cwd`: `{ ok, message }`. */
export function checkReliability(cwd = process.cwd()) {
  const fail = (message) => ({ ok: false, message });
  const root = tryGit(cwd, 'rev-parse', '--show-toplevel');
  if (!root)
    return fail(
      `${cwd} is not in a git work tree: the RELIABILITY.md check compares commits, so it needs the repository with its history.`,
    );

  const file = join(root, 'RELIABILITY.md');
  if (!existsSync(file))
    return fail('RELIABILITY.md is missing: run `npm run reliability` and commit the file it writes.');
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => COMMIT_ROW.exec(line))
    .filter((m) => m !== null);
  if (rows.length !== 1)
    return fail(
      `RELIABILITY.md has ${rows.length} \`| commit | \`<sha>\` |\` rows, not one: it is not a file \`npm run reliability\` wrote.`,
    );
  const [, named, rest] = rows[0];
  if (/uncommitted/.test(rest)) {
    return fail(
      `RELIABILITY.md ran on commit ${named} with uncommitted changes, so it shows no commit's code: run \`npm run reliability\` on a clean checkout and commit the file it writes.`,
    );
  }

  const sha = tryGit(root, 'rev-parse', '--verify', '--quiet', `${named}^{commit}`);
  if (!sha) {
    if (tryGit(root, 'rev-parse', '--is-shallow-repository') === 'true') {
      return fail(
        `RELIABILITY.md names commit ${named}, which this clone does not have: the clone is shallow, so whether the money paths changed since cannot be told. Fetch the whole history (\`git fetch --unshallow\`) and run the check again.`,
      );
    }
    return fail(
      `RELIABILITY.md names commit ${named}, which is not in this repository: run \`npm run reliability\` on this code and commit the file it writes.`,
    );
  }

  const missing = MONEY_PATHS.filter((p) => !tryGit(root, 'ls-tree', '--name-only', 'HEAD', '--', p));
  if (missing.length > 0) {
    return fail(
      `these money paths are not in HEAD: ${missing.join(', ')}. If the code moved, update MONEY_PATHS in scripts/check-reliability.mjs.`,
    );
  }

  const changed = git(root, 'diff', '--name-only', '--no-renames', sha, 'HEAD', '--', ...MONEY_PATHS)
    .split('\n')
    .filter((f) => f !== '');
  const short = sha.slice(0, 12);
  if (changed.length > 0) {
    return fail(
      [
        `RELIABILITY.md is stale: it ran on commit ${short}, and ${changed.length} file${changed.length === 1 ? '' : 's'} of the money paths changed since (committed, up to HEAD):`,
        ...changed.map((f) => `  ${f}`),
        'Run `npm run reliability` on a clean checkout of HEAD and commit the RELIABILITY.md it writes.',
      ].join('\n'),
    );
  }
  return {
    ok: true,
    message: `RELIABILITY.md is current: it ran on commit ${short}, and no file under ${MONEY_PATHS.join(', ')} changed since.`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ok, message } = checkReliability();
  (ok ? console.log : console.error)(message);
  process.exit(ok ? 0 : 1);
}
