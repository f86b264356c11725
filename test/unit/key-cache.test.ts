// The key cache's rules: requests that miss at the same moment share one lookup, a key's
// last use is written at most once a minute per process, and a revoke wins over a lookup
// that was under way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KEY_TOUCH_MS, KeyCache } from '../../src/modules/keys/keys.service.js';

const row = (id: string) =>
  ({
    id,
    user_id: 'usr_1',
    name: 'k',
    mode: 'test',
    class: 'full',
    allowed_origin: null,
    prefix: 'sk_test_abcd',
    created_at: new Date(0),
    revoked_at: null,
    last_used_at: null,
  }) as never;

describe('key cache', () => {
  it('shares one lookup between requests that miss at the same moment', async () => {
    const cache = new KeyCache();
    let lookups = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      lookups++;
      await gate;
      return row('key_1');
    };
    const all = Promise.all(Array.from({ length: 50 }, () => cache.load('h', load)));
    release();
    const rows = await all;
    assert.equal(lookups, 1);
    assert.ok(rows.every((r) => r?.id === 'key_1'));
    await cache.load('h', load);
    assert.equal(lookups, 2, 'a later miss looks up again');
  });

  it('writes a key’s last use at most once a minute', () => {
    const cache = new KeyCache();
    const t = 1_000_000;
    assert.equal(cache.touchDue('key_1', t), true);
    assert.equal(cache.touchDue('key_1', t + 3_000), false);
    assert.equal(cache.touchDue('key_1', t + KEY_TOUCH_MS - 1), false);
    assert.equal(cache.touchDue('key_2', t + 1), true, 'each key on its own');
    assert.equal(cache.touchDue('key_1', t + KEY_TOUCH_MS), true);
    assert.equal(cache.touchDue('key_1', t + KEY_TOUCH_MS + 1), false);
  });

  it('a revoke wins over a lookup under way: the row it read is not cached', () => {
    const cache = new KeyCache();
    const generation = cache.generation;
    cache.forget('key_1');
    cache.set('h', row('key_1'), 0, generation);
    assert.equal(cache.get('h', 1), undefined);
    cache.set('h', row('key_1'), 0);
    assert.equal(cache.get('h', 1)?.id, 'key_1');
  });
});
