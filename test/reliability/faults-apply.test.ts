// The planted faults of the reliability run (test/reliability/faults/) must still apply to
// the code they break: a patch that no longer applies would make `npm run reliability` prove
// nothing about that fault.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';

test('every planted-fault patch applies to the current tree', () => {
  const patches = readdirSync('test/reliability/faults').filter((n) => n.endsWith('.patch'));
  assert.ok(patches.length >= 4, 'the four planted faults');
  for (const p of patches) {
    assert.doesNotThrow(
      () => execFileSync('git', ['apply', '--check', `test/reliability/faults/${p}`], { stdio: 'pipe' }),
      `${p} applies`,
    );
  }
});
