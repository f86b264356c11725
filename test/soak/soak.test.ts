// The short soak inside `npm test` (PostgreSQL pass: three instances need a server they share).
// `npm run soak` runs it for 3 minutes, three times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSoak } from './soak.js';

const onPostgres = process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL;

describe('three instances under fire (short soak)', { timeout: 600_000 }, () => {
  it('keeps every invariant with one instance killed every 10 s for 30 s', {
    skip: onPostgres ? false : 'needs the shared PostgreSQL server (the PostgreSQL pass)',
  }, async () => {
    const f = await runSoak({
      seconds: 30,
      killEverySeconds: 10,
      databaseUrl: process.env.TEST_DATABASE_URL!,
      redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      seed: 5,
      callers: 8,
    });
    assert.deepEqual(f.violations, []);
    // A soak that did nothing proves nothing.
    assert.ok(f.kills >= 2, `${f.kills} kills`);
    assert.ok(f.acknowledged.free > 20 && f.acknowledged.paid > 5, JSON.stringify(f.acknowledged));
    assert.ok(
      f.admits > 5 && f.ticketMails > 20,
      JSON.stringify({ admits: f.admits, ticketMails: f.ticketMails }),
    );
  });
});
