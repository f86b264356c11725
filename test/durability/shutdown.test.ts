// SIGTERM: stop taking connections, finish what is in flight, close storage, exit 0; on the
// embedded database, its server has stopped cleanly by then.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startProcess } from '../helpers/process.js';

describe('graceful shutdown', () => {
  it('answers the request in flight, then exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-term-'));
    const env: Record<string, string> = { DATA_DIR: dir, WORKERS: 'true', LOG_LEVEL: 'warn' };
    if (process.env.TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL)
      env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    const service = await startProcess(env);
    const postmaster = env.DATABASE_URL
      ? undefined
      : Number(readFileSync(join(dir, 'db', 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      // In flight by construction, not by a sleep: the request asks for "100 Continue", and
      // the server sends it once it has read the request's headers and taken it on; only then
      // does the signal go, and only then the body.
      const body = JSON.stringify({
        email: `term-${randomUUID()}@example.in`,
        password: 'a long password',
        name: 'T',
      });
      const req = request(`${service.url}/auth/signup`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          expect: '100-continue',
        },
      });
      const inFlight = new Promise<IncomingMessage>((resolve, reject) => {
        req.on('response', resolve);
        req.on('error', reject);
      });
      req.flushHeaders();
      await new Promise<void>((resolve) => req.once('continue', resolve));
      const exited = service.stop('SIGTERM');
      req.end(body);
      const answer = await inFlight;
      answer.resume();
      // Taken on before the signal, so answered in full, never cut off nor turned away.
      assert.equal(answer.statusCode, 201);
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
