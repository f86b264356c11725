// Every acknowledged registration survives a SIGKILL in the middle of a load. On the embedded
// pass also: the embedded server stops by itself when its service dies, a crash of the server
// itself is recovered from its WAL, and a server left running without its service is stopped
// at the next start.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { call, organiser } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const embeddedOnly = onPostgres
  ? 'about the embedded server (the PostgreSQL pass uses a server the service does not run)'
  : false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie has exited; it only waits for its parent (or init) to reap it.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

function postmasterOf(dir: string): number {
  return Number(readFileSync(join(dir, 'db', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((p) => {
      try {
        return parentOf(p) === pid;
      } catch {
        return false;
      }
    });
}

describe('durability under SIGKILL', () => {
  const dirs: string[] = [];
  const services: ServiceProcess[] = [];

  after(async () => {
    for (const s of services) await s.stop('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function start(dir: string): Promise<ServiceProcess> {
    const env: Record<string, string> = {
      DATA_DIR: dir,
      WORKERS: 'true',
      LOG_LEVEL: 'warn',
      ...RAISED_LIMITS,
      EMAIL_DNS_CHECK: 'false',
    };
    if (onPostgres) env.DATABASE_URL = process.env.TEST_DATABASE_URL!;
    const s = await startProcess(env);
    services.push(s);
    return s;
  }

  /**
   * Registers from 24 concurrent callers until `kill` has been called after at least `min`
   * acknowledgements; returns the acknowledged registration ids.
   */
  async function loadThenKill(service: ServiceProcess, min: number, kill: () => void) {
    const org = await organiser(service.url);
    const eventId = await createEvent(keyApi(service.url, org.key), {
      title: 'Kill mid-load',
      startDate: '2026-12-31',
      capacity: 0,
    });
    const acknowledged: string[] = [];
    let killed = false;
    let n = 0;
    let failedAfterKill = 0;
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (!killed) {
          const i = n++;
          try {
            const r = await call(service.url, 'POST', `/api/v1/events/${eventId}/register`, {
              key: org.key,
              body: { name: `P${i}`, email: `p${i}@example.in` },
            });
            if (r.status === 201) acknowledged.push(r.body.registrationId as string);
            else if (!killed) assert.fail(`registration answered ${r.status}`);
          } catch (err) {
            if (!killed) throw err;
            failedAfterKill++;
          }
          if (!killed && acknowledged.length >= min) {
            killed = true;
            kill();
          }
        }
      }),
    );
    await service.stop('SIGKILL'); // reaped
    // The kill came with requests in flight: it was mid-load.
    assert.ok(failedAfterKill > 0, 'requests were in flight when the service was killed');
    return { key: org.key, eventId, acknowledged };
  }

  async function assertAllStored(
    service: ServiceProcess,
    key: string,
    eventId: string,
    acknowledged: string[],
  ) {
    const list = await call(service.url, 'GET', `/api/v1/events/${eventId}/registrations?limit=1000`, {
      key,
    });
    assert.equal(list.status, 200);
    const stored = new Map((list.body.data as { id: string; status: string }[]).map((r) => [r.id, r.status]));
    const missing = acknowledged.filter((id) => stored.get(id) !== 'confirmed');
    assert.deepEqual(
      missing,
      [],
      `every one of ${acknowledged.length} acknowledged registrations is stored and confirmed`,
    );
  }

  it('finds every acknowledged registration after a SIGKILL of the service mid-load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-kill-'));
    dirs.push(dir);
    const service = await start(dir);
    const postmaster = onPostgres ? undefined : postmasterOf(dir);
    const { key, eventId, acknowledged } = await loadThenKill(service, 300, () =>
      service.child.kill('SIGKILL'),
    );
    if (postmaster !== undefined) {
      // The watchdog saw the service's pipe close and asked the server to shut down.
      assert.ok(await gone(postmaster, 20_000), 'the embedded server stopped when its service died');
    }
    const again = await start(dir);
    await assertAllStored(again, key, eventId, acknowledged);
    // A graceful stop leaves no server behind.
    const next = onPostgres ? undefined : postmasterOf(dir);
    assert.equal(await again.stop('SIGTERM'), 0);
    if (next !== undefined) {
      assert.ok(!alive(next), 'the embedded server stopped with the service');
      assert.ok(!existsSync(join(dir, 'db', 'postmaster.pid')), 'and shut down cleanly');
    }
  });

  it('recovers every acknowledged registration from the WAL after the service and its server are both killed mid-load', {
    skip: embeddedOnly,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    dirs.push(dir);
    const service = await start(dir);
    const postmaster = postmasterOf(dir);
    const { key, eventId, acknowledged } = await loadThenKill(service, 300, () => {
      process.kill(postmaster, 'SIGKILL'); // no shutdown checkpoint: only what was flushed to the WAL counts
      service.child.kill('SIGKILL');
    });
    const again = await start(dir);
    await assertAllStored(again, key, eventId, acknowledged);
  });

  it('stops a server left running without its service and watchdog, then starts on the same data', {
    skip: embeddedOnly,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-orphan-'));
    dirs.push(dir);
    const service = await start(dir);
    const postmaster = postmasterOf(dir);
    const watchdog = parentOf(postmaster);
    // The watchdog and its pipe reader: everything that would stop the server.
    const watchers = [watchdog, ...childrenOf(watchdog).filter((p) => p !== postmaster)];
    const { key, eventId, acknowledged } = await loadThenKill(service, 100, () => {
      for (const p of watchers) process.kill(p, 'SIGKILL');
      service.child.kill('SIGKILL');
    });
    // Wait until what could stop the server is gone (observable), not for a while.
    for (const p of watchers) assert.ok(await gone(p, 5_000), `watcher ${p} exited`);
    assert.ok(alive(postmaster), 'the orphaned server still runs');
    const again = await start(dir);
    assert.ok(await gone(postmaster, 5_000), 'the start stopped it');
    await assertAllStored(again, key, eventId, acknowledged);
  });
});
