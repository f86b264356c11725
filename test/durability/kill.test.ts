// The embedded database keeps every acknowledged write through a SIGKILL of the service.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startProcess, type ServiceProcess } from '../helpers/process.js';

describe('embedded database durability', { skip: process.env.TEST_DB === 'postgres' ? 'about PGlite (the PostgreSQL pass covers PostgreSQL)' : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-kill-'));
  let service: ServiceProcess | undefined;
  const env = { DATA_DIR: dir, WORKERS: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' };

  after(async () => {
    await service?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every acknowledged write after a SIGKILL right after a burst', async () => {
    service = await startProcess(env);
    const post = (path: string, body: unknown, token?: string) =>
      fetch(service!.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const signup = await post('/auth/signup', { email: 'durable@example.in', password: 'a long password', name: 'D' });
    assert.equal(signup.status, 201);
    const { idToken } = (await signup.json()) as { idToken: string };

    const acknowledged: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post('/dashboard/api/keys', { mode: 'test', class: 'full', name: `k${batch}-${i}` }, idToken)),
      );
      for (const a of answers) if (a.status === 201) acknowledged.push(((await a.json()) as { data: { id: string } }).data.id);
    }
    // Killed at once after the last acknowledgement: no graceful close, no checkpoint.
    await service.stop('SIGKILL');
    assert.equal(acknowledged.length, 200);

    service = await startProcess(env);
    const login = await post('/auth/login', { email: 'durable@example.in', password: 'a long password' });
    const token = ((await login.json()) as { idToken: string }).idToken;
    const list = (await (await fetch(`${service.url}/dashboard/api/keys`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { id: string }[] };
    const stored = new Set(list.data.map((k) => k.id));
    const missing = acknowledged.filter((id) => !stored.has(id));
    assert.deepEqual(missing, [], 'every acknowledged write survived');
  });
});
