// No booking status is written outside the lifecycle module (docs/decisions/20-booking-lifecycle.md): every
// statement that writes `registrations.status` — a Kysely insert or an update that sets
// `status`, or SQL text that inserts into or updates registrations — stands in
// src/modules/registrations/lifecycle/. The finder is parsed with the TypeScript compiler,
// and checked here against planted writes so that it cannot pass by finding nothing.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

const LIFECYCLE = 'src/modules/registrations/lifecycle/';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** Where `source` writes a booking's status: `line: what` for each write found. */
export function statusWrites(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const at = (n: ts.Node, what: string) =>
    found.push(`${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${what}`);
  const isCall = (n: ts.Node, method: string): n is ts.CallExpression =>
    ts.isCallExpression(n) &&
    ts.isPropertyAccessExpression(n.expression) &&
    n.expression.name.text === method &&
    n.arguments.length > 0 &&
    ts.isStringLiteralLike(n.arguments[0]!) &&
    n.arguments[0].text === 'registrations';
  // The chain a call stands in: `db.updateTable('registrations').set({...}).where(...)` from its outermost call.
  const chainOf = (n: ts.Node): ts.Node => {
    let top = n;
    while (
      top.parent &&
      (ts.isPropertyAccessExpression(top.parent) ||
        (ts.isCallExpression(top.parent) && top.parent.expression === top))
    )
      top = top.parent;
    return top;
  };
  const setsStatus = (chain: ts.Node): boolean => {
    let hit = false;
    const visit = (n: ts.Node) => {
      if (
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        ['set', 'values'].includes(n.expression.name.text)
      ) {
        for (const arg of n.arguments) if (mentionsStatus(arg)) hit = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(chain);
    return hit;
  };
  const mentionsStatus = (n: ts.Node): boolean => {
    // An object literal with a `status` key, or anything spread or passed whose type we cannot see: counted as a write.
    if (ts.isObjectLiteralExpression(n))
      return n.properties.some(
        (p) =>
          (p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'status') ||
          ts.isSpreadAssignment(p) ||
          (ts.isShorthandPropertyAssignment(p) && p.name.text === 'status'),
      );
    return !ts.isArrowFunction(n);
  };
  const visit = (n: ts.Node) => {
    if (isCall(n, 'insertInto')) at(n, 'insert into registrations');
    if (isCall(n, 'updateTable') && setsStatus(chainOf(n))) at(n, 'update of registrations.status');
    if (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n) || ts.isStringLiteral(n)) {
      const text = n.getText(sf).toLowerCase();
      if (/insert\s+into\s+registrations\b/.test(text)) at(n, 'SQL insert into registrations');
      if (/update\s+registrations\b[\s\S]*?\bset\b[\s\S]*?\bstatus\s*=/.test(text))
        at(n, 'SQL update of registrations.status');
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('a booking’s status is written only by the lifecycle module', () => {
  test('the finder sees every kind of write (planted)', () => {
    const planted = [
      `db.updateTable('registrations').set({ status: 'cancelled' }).where('id', '=', id).execute();`,
      `db.updateTable('registrations').set({ ...changes }).execute();`,
      `db.insertInto('registrations').values(row).execute();`,
      'sql`update registrations set name = ${n}, status = ${s} where id = ${id}`.execute(db);',
      'sql`with b as (select 1) insert into registrations (id, status) select 1, 2`.execute(db);',
    ];
    for (const code of planted) assert.equal(statusWrites('planted.ts', code).length, 1, code);
    // Writes that leave the status alone are not counted.
    for (const code of [
      `db.updateTable('registrations').set({ refund_id: r }).execute();`,
      `db.updateTable('attendees').set({ status: 'x' }).execute();`,
      'sql`select status from registrations`',
    ]) {
      assert.deepEqual(statusWrites('planted.ts', code), [], code);
    }
  });

  test('no file outside src/modules/registrations/lifecycle/ writes it', () => {
    const outside: string[] = [];
    let inside = 0;
    for (const path of files(join(process.cwd(), 'src'))) {
      const file = relative(process.cwd(), path).split(sep).join('/');
      const writes = statusWrites(file, readFileSync(path, 'utf8'));
      if (file.startsWith(LIFECYCLE)) inside += writes.length;
      else outside.push(...writes.map((w) => `${file}:${w}`));
    }
    assert.deepEqual(outside, []);
    // The lifecycle's own writes are found: insertBooking, moveBooking and the free booking statement.
    assert.ok(inside >= 3, `found ${inside} writes in the lifecycle module`);
  });
});
