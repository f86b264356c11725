// Small pieces: no file under src/ is over 350 lines (the modules' table declarations and the
// migrations aside) and no function has over 60 lines of logic (non-blank lines that hold code, not only
// comments; a function written inside another counts towards its own size, not the outer
// one's). The offenders of today are listed in .sizes-known.json, and that list can only
// shrink: a new offender fails the test, and so does an entry that no longer offends.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

export const MAX_FILE_LINES = 350;
export const MAX_FUNCTION_LINES = 60;

const ROOT = process.cwd();

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

/** Table types and migrations are long by nature: they are not measured. */
const exempt = (rel: string) => rel.endsWith('.tables.ts') || rel.split(sep).includes('migrations');

/** The lines (0-based) of a source text that hold a token, comments and blanks left out. */
function codeLines(sf: ts.SourceFile): Set<number> {
  const lines = new Set<number>();
  const mark = (from: number, to: number) => {
    const a = sf.getLineAndCharacterOfPosition(from).line;
    const b = sf.getLineAndCharacterOfPosition(Math.max(from, to - 1)).line;
    for (let l = a; l <= b; l++) lines.add(l);
  };
  // Walk the tree's tokens (the scanner alone cannot tell a template's middle from a brace).
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstToken && node.kind <= ts.SyntaxKind.LastToken) {
      mark(node.getStart(sf), node.end);
      return;
    }
    const children = node.getChildren(sf);
    if (children.length === 0) mark(node.getStart(sf), node.end);
    for (const c of children) visit(c);
  };
  visit(sf);
  return lines;
}

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

const isFunction = (n: ts.Node): n is FunctionNode =>
  (ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isArrowFunction(n) ||
    ts.isFunctionExpression(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessor(n) ||
    ts.isSetAccessor(n)) &&
  n.body !== undefined;

/** A name a reader can find the function by: its own, its variable's or property's, or the call it is passed to. */
function nameOf(fn: FunctionNode, sf: ts.SourceFile): string {
  if (fn.name) return fn.name.getText(sf);
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  if (isFunction(fn.parent) && fn.parent.body === fn) return '(returned function)';
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(sf);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(sf).replace(/\s+/g, '');
    const first = parent.arguments[0];
    const label =
      first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))
        ? `'${first.text}'`
        : '';
    return `${callee}(${label}) callback`;
  }
  return '(anonymous)';
}

export interface Offence {
  key: string;
  lines: number;
}

/** Every file over the line limit and every function over its limit under `root`'s src/. */
export function offences(root: string): Offence[] {
  const out: Offence[] = [];
  for (const file of files(join(root, 'src'))) {
    const rel = relative(root, file);
    if (exempt(rel)) continue;
    const text = readFileSync(file, 'utf8');
    const total = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (total > MAX_FILE_LINES) out.push({ key: `file ${rel.split(sep).join('/')}`, lines: total });
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const code = codeLines(sf);
    const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
    const measure = (fn: FunctionNode, outer: string | undefined) => {
      const own = new Set<number>();
      for (let l = lineOf(fn.getStart(sf)); l <= lineOf(fn.end - 1); l++) if (code.has(l)) own.add(l);
      // Lines inside functions written within this one are theirs.
      const inner = (node: ts.Node) => {
        if (isFunction(node)) {
          const a = lineOf(node.body.getStart(sf)) + 1;
          const b = lineOf(node.body.end - 1) - (ts.isBlock(node.body) ? 1 : 0);
          for (let l = a; l <= b; l++) own.delete(l);
          return;
        }
        ts.forEachChild(node, inner);
      };
      inner(fn.body);
      const name = outer ? `${outer} › ${nameOf(fn, sf)}` : nameOf(fn, sf);
      if (own.size > MAX_FUNCTION_LINES)
        out.push({ key: `function ${rel.split(sep).join('/')}: ${name}`, lines: own.size });
      return name;
    };
    const visit = (node: ts.Node, outer: string | undefined) => {
      if (isFunction(node)) {
        const name = measure(node, outer);
        ts.forEachChild(node, (c) => visit(c, name));
        return;
      }
      ts.forEachChild(node, (c) => visit(c, outer));
    };
    visit(sf, undefined);
  }
  return out;
}

interface Known {
  offence: string;
  why: string;
}

const known = (JSON.parse(readFileSync(join(ROOT, '.sizes-known.json'), 'utf8')) as { offences: Known[] })
  .offences;

describe('small pieces', () => {
  const found = offences(ROOT);

  test(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES} lines of logic, beyond the known ones`, () => {
    const allowed = new Set(known.map((k) => k.offence));
    const fresh = found.filter((o) => !allowed.has(o.key)).map((o) => `${o.key} (${o.lines} lines)`);
    assert.deepEqual(
      fresh,
      [],
      'split these, moving code (a new offender is never added to .sizes-known.json)',
    );
  });

  test('every entry of .sizes-known.json still offends (the list only shrinks)', () => {
    const still = new Set(found.map((o) => o.key));
    const gone = known.filter((k) => !still.has(k.offence)).map((k) => k.offence);
    assert.deepEqual(gone, [], 'remove these entries from .sizes-known.json: they are within the limits now');
  });

  test('the measure: code lines count; comments, blank lines and inner functions do not', () => {
    const lines = (n: number, make: (i: number) => string) =>
      Array.from({ length: n }, (_, i) => make(i)).join('\n');
    const root = mkdtempSync(join(tmpdir(), 'sizes-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      // 61 lines of logic: one over.
      write('src/a.ts', `export function long() {\n${lines(59, (i) => `  const v${i} = ${i};`)}\n}\n`);
      // 60 lines of logic padded with comments and blank lines: within.
      write(
        'src/b.ts',
        `export function padded() {\n${lines(58, (i) => `  const v${i} = ${i};\n  // why ${i}\n\n  /* more */`)}\n}\n`,
      );
      // An outer function of few lines holding a long inner one: only the inner offends.
      write(
        'src/c.ts',
        `export function outer() {\n  const x = 1;\n  return (y: number) => {\n${lines(61, (i) => `    const v${i} = ${i} + y;`)}\n  };\n}\n`,
      );
      // A long file, and the same length as table types and as a migration: only the first.
      const long = lines(351, (i) => `export const v${i} = ${i};`) + '\n';
      write('src/d.ts', long);
      write('src/modules/m/m.tables.ts', long);
      write('src/db/migrations/0001_x.ts', long);
      // The OpenAPI folder has no exemption either (its tables went beside the routes).
      write('src/openapi/z.ts', long);
      assert.deepEqual(
        offences(root).map((o) => `${o.key} (${o.lines})`),
        [
          'function src/a.ts: long (61 lines)',
          'function src/c.ts: outer › (anonymous) (63 lines)',
          'file src/d.ts (351 lines)',
          'file src/openapi/z.ts (351 lines)',
        ].map((s) => s.replace(' lines)', ')')),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
