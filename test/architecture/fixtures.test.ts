// Test fixtures that compose: a test states its "given" through the named fixtures in
// test/helpers/ (scripts/check-fixtures.mjs). The tree has no finding, and every rule is shown to
// fire on a planted file.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
// @ts-expect-error a plain .mjs script without types
import { checkFixtures as checkFixtures_ } from '../../scripts/check-fixtures.mjs';

const checkFixtures = checkFixtures_ as (root?: string, owners?: Record<string, string>) => string[];

test('every test file states its given through the named fixtures', () => {
  assert.deepEqual(
    checkFixtures(),
    [],
    'use the fixtures in test/helpers/ (factories.ts, rows.ts, callers.ts), or mark a call that is the test’s own subject',
  );
});

describe('each rule fires on a planted test file', () => {
  const planted = (path: string, text: string) => {
    const root = mkdtempSync(join(tmpdir(), 'fixtures-'));
    try {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
      return checkFixtures(root, { registrations: 'registrations', jobs: 'jobs' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };

  test('a local (method, path) caller', () => {
    const text =
      'const api = (method: string, path: string, body?: unknown) => call(server.url, method, path, { key, body });\n';
    assert.deepEqual(planted('test/x/a.test.ts', text), ['test/x/a.test.ts:1: local-api']);
  });

  test('an event created inline, outside test/events/', () => {
    const text = "await api('POST', '/api/v1/events', { title: 'T' });\n";
    assert.deepEqual(planted('test/x/a.test.ts', text), ['test/x/a.test.ts:1: inline-event']);
    assert.deepEqual(planted('test/events/a.test.ts', text), []);
  });

  test('a sandbox payment posted inline, outside test/sandbox/', () => {
    const text = "await api('POST', '/api/v1/sandbox/payments', { orderId, outcome: 'success' });\n";
    assert.deepEqual(planted('test/x/a.test.ts', text), ['test/x/a.test.ts:1: inline-payment']);
    assert.deepEqual(planted('test/sandbox/a.test.ts', text), []);
  });

  test('another module’s table, but not the folder’s own', () => {
    const text = "const rows = await server.deps.db.selectFrom('registrations').selectAll().execute();\n";
    assert.deepEqual(planted('test/x/a.test.ts', text), [
      'test/x/a.test.ts:1: foreign-table: registrations (registrations)',
    ]);
    assert.deepEqual(planted('test/registrations/a.test.ts', text), []);
    const split = "await db\n  .updateTable(\n    'jobs')\n  .set({ status: 'dead' });\n";
    assert.deepEqual(planted('test/x/a.test.ts', split), ['test/x/a.test.ts:2: foreign-table: jobs (jobs)']);
  });

  test('a marked exception covers its statement however it is broken, and nothing after it', () => {
    const text = [
      "// fixture-exception: another account's refusal is the subject",
      'const r = await api(',
      "  'POST',",
      "  '/api/v1/sandbox/payments',",
      '  { orderId },',
      ');',
      "await api('POST', '/api/v1/sandbox/payments', { orderId });",
      '',
    ].join('\n');
    assert.deepEqual(planted('test/x/a.test.ts', text), ['test/x/a.test.ts:7: inline-payment']);
  });

  test('a marked exception is the test’s own subject and is not counted', () => {
    const text =
      "// fixture-exception: the endpoint's own refusal is the subject\nawait api('POST', '/api/v1/sandbox/payments', { orderId }, other.key);\n";
    assert.deepEqual(planted('test/x/a.test.ts', text), []);
  });
});
