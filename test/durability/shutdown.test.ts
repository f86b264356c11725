// SIGTERM: stop taking connections, finish what is in flight, close storage, exit 0; on the
// embedded database, its server has stopped cleanly by then.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startProcess } from '../helpers/process.js';

describe('graceful shutdown', () => {
  it('answers the request in flight, then exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-term-'));
    const env: Record<string, string> = { DATA_DIR: dir, WORKERS: 'true', LOG_LEVEL: 'warn' };
    if (process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL) env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    const service = await startProcess(env);
    const postmaster = env.DATABASE_URL ? undefined : Number(readFileSync(join(dir, 'db', 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      // Sign-up hashes a password (tens of milliseconds): it is in flight when the signal arrives.
      const inFlight = fetch(`${service.url}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `term-${Date.now()}@example.in`, password: 'a long password', name: 'T' }),
      });
      await new Promise((r) => setTimeout(r, 40));
      const exited = service.stop('SIGTERM');
      const answer = await inFlight;
      // Answered, never cut off: 201 when it was in flight, 503 if the signal beat it to the server.
      assert.ok([201, 503].includes(answer.status), `answered ${answer.status}`);
      assert.equal(await exited, 0, 'a clean exit');
      await assert.rejects(fetch(`${service.url}/healthz`), 'no longer listening');
      if (postmaster !== undefined) {
        assert.throws(() => process.kill(postmaster, 0), 'the embedded server has exited');
        assert.ok(!existsSync(join(dir, 'db', 'postmaster.pid')), 'after a clean shutdown');
      }
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
