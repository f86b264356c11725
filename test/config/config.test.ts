// loadConfig(env) (docs/decisions/01-running-it.md): defaults, refusals of bad values with one line
// naming the variable, generated secrets kept in DATA_DIR; and the process refusing
// to start on a bad value.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ReconcileRunner } from '../../src/modules/reconciliation/reconcile.runner.js';
import type { ReconcileDeps } from '../../src/modules/reconciliation/reconcile.service.js';
import { call, signup } from '../helpers/http.js';
import { startServer } from '../helpers/server.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'svc-config-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An env with only DATA_DIR set, plus what the test adds. */
const envWith = (extra: Record<string, string> = {}, dataDir = tempDir()) => ({
  DATA_DIR: dataDir,
  ...extra,
});

describe('loadConfig: defaults', () => {
  it('follows docs/decisions/01-running-it.md when nothing is set', () => {
    const dataDir = tempDir();
    const c = loadConfig({ DATA_DIR: dataDir });
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.baseUrl, 'http://localhost:3000');
    assert.equal(c.rateLimitPerMinute, 600);
    assert.equal(c.broadcastMaxRecipients, 2000);
    assert.equal(c.workers, true);
    assert.equal(c.emailDnsCheck, true);
    assert.equal(c.emailDnsCanary, 'gmail.com');
    assert.equal(c.mailFrom, 'tickets@localhost');
    assert.equal(c.razorpay.apiUrl, 'https://api.razorpay.com');
    assert.equal(c.razorpay.keyId, undefined);
    assert.equal(c.razorpay.keySecret, undefined);
    assert.equal(c.razorpay.webhookSecret, undefined);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.smtpUrl, undefined);
    assert.equal(c.redisUrl, undefined);
    assert.deepEqual(c.staffEmails, []);
    assert.deepEqual(c.dnsServers, []);
    assert.equal(c.webhookAllowPrivateUrls, false);
    assert.equal(c.dataDir, dataDir);
    // The third round's limits (docs/decisions/21-trust-and-safety-third-round.md).
    assert.equal(c.http.maxConnections, 10_000);
    assert.equal(c.http.maxConnectionsPerAddress, 256);
    assert.equal(c.http.acceptQueues, 16);
    assert.equal(c.rateLimitPerAccountMinute, 1800, '3 × RATE_LIMIT_PER_MINUTE');
    assert.equal(c.signupLimitPerHour, 10);
    assert.equal(c.verifyMailLimitPerHour, 5);
    assert.equal(c.doorRosterMaxPeople, 500_000);
    assert.equal(c.metricsPublic, false);
    assert.ok(Object.isFrozen(c));
  });

  it('BASE_URL defaults to the chosen PORT; a given BASE_URL loses its trailing slash', () => {
    assert.equal(loadConfig(envWith({ PORT: '8080' })).baseUrl, 'http://localhost:8080');
    assert.equal(
      loadConfig(envWith({ BASE_URL: 'https://tickets.example.in/' })).baseUrl,
      'https://tickets.example.in',
    );
  });

  it('reads given values, trimmed; empty means unset', () => {
    const c = loadConfig(
      envWith({
        PORT: ' 4000 ',
        HOST: '0.0.0.0',
        METRICS_TOKEN: 'a-token-for-the-scraper',
        DATABASE_URL: 'postgres://u@db.internal:5432/app',
        REDIS_URL: 'redis://cache:6379',
        SMTP_URL: 'smtp://u:p@mail:587',
        MAIL_FROM: 'tickets@organiser.in',
        RAZORPAY_KEY_ID: 'rzp_test_x',
        RAZORPAY_KEY_SECRET: 'secret',
        RAZORPAY_API_URL: 'http://127.0.0.1:9999',
        STAFF_EMAILS: 'Ops@Example.in, second@example.in,',
        DNS_SERVERS: '127.0.0.1:5353, [::1]:53',
        RATE_LIMIT_PER_MINUTE: '60',
        BROADCAST_MAX_RECIPIENTS: '10',
        WORKERS: 'false',
        EMAIL_DNS_CHECK: '0',
        EMAIL_DNS_CANARY: ' Example.IN. ',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'yes',
        LOG_LEVEL: '',
      }),
    );
    assert.equal(c.port, 4000);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.databaseUrl, 'postgres://u@db.internal:5432/app');
    assert.equal(c.redisUrl, 'redis://cache:6379');
    assert.equal(c.mailFrom, 'tickets@organiser.in');
    assert.equal(c.razorpay.keyId, 'rzp_test_x');
    assert.equal(c.razorpay.apiUrl, 'http://127.0.0.1:9999');
    assert.deepEqual(c.staffEmails, ['ops@example.in', 'second@example.in']);
    assert.deepEqual(c.dnsServers, ['127.0.0.1:5353', '[::1]:53']);
    assert.equal(c.rateLimitPerMinute, 60);
    assert.equal(c.broadcastMaxRecipients, 10);
    assert.equal(c.workers, false);
    assert.equal(c.emailDnsCheck, false);
    assert.equal(c.emailDnsCanary, 'example.in');
    assert.equal(c.webhookAllowPrivateUrls, true);
    assert.equal(c.logLevel, 'info');
  });
});

describe('DOOR_ROSTER_CHECK_MS', () => {
  it('defaults to 2000 ms between the door rosters’ version checks', () => {
    assert.equal(loadConfig(envWith()).doorRosterCheckMs, 2000);
    assert.equal(loadConfig(envWith({ DOOR_ROSTER_CHECK_MS: '100' })).doorRosterCheckMs, 100);
  });
});

describe('monthly partitions (docs/operations/partitions.md)', () => {
  it('keep the audit log, 2 months of deliveries, 4 of jobs, 24 of door scans, and make 3 months ahead', () => {
    assert.deepEqual(loadConfig(envWith()).partitions, {
      monthsAhead: 3,
      retentionMonths: { audit: null, webhookDeliveries: 2, jobs: 4, doorScans: 24 },
    });
    const c = loadConfig(
      envWith({ AUDIT_RETENTION_MONTHS: '120', JOB_RETENTION_MONTHS: '0', PARTITION_MONTHS_AHEAD: '6' }),
    );
    assert.equal(c.partitions.retentionMonths.audit, 120);
    assert.equal(c.partitions.retentionMonths.jobs, null, '0 keeps every month');
    assert.equal(c.partitions.monthsAhead, 6);
  });

  it('refuse an audit retention shorter than 8 years, in one line naming the variable', () => {
    assert.throws(
      () => loadConfig(envWith({ AUDIT_RETENTION_MONTHS: '12' })),
      (err: unknown) => err instanceof ConfigError && /AUDIT_RETENTION_MONTHS.*96/.test(err.message),
    );
    assert.throws(() => loadConfig(envWith({ PARTITION_MONTHS_AHEAD: '0' })), ConfigError);
  });
});

describe('RECONCILE_EVERY_SECONDS', () => {
  it('defaults to 300; 0 is accepted and means "never sweep on its own"', () => {
    assert.equal(loadConfig(envWith()).reconcile.everySeconds, 300);
    assert.equal(loadConfig(envWith({ RECONCILE_EVERY_SECONDS: '0' })).reconcile.everySeconds, 0);
  });

  it('0: the runner never sweeps, not even on start; any other value sweeps on start', async () => {
    const touched: string[] = [];
    // A sweep starts by reading its dependencies (ids, clock, database): record any such touch.
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const deps = (name: string) =>
      new Proxy({} as ReconcileDeps, {
        get: (_t, prop) => {
          if (prop === 'logger') return quiet;
          touched.push(name);
          throw new Error('no dependencies here');
        },
      });
    const off = new ReconcileRunner(deps('off'), 0);
    const on = new ReconcileRunner(deps('on'), 3600);
    off.start();
    on.start();
    // The first sweep is scheduled with setTimeout(0): let timers run.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await off.stop();
    await on.stop();
    assert.ok(touched.includes('on'), 'a runner with a period sweeps on start');
    assert.ok(!touched.includes('off'), 'RECONCILE_EVERY_SECONDS=0 never sweeps');
  });
});

describe('loadConfig: bad values stop start-up with one line naming the variable', () => {
  const bad: Array<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: 'ten' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ BROADCAST_MAX_RECIPIENTS: '0' }, 'BROADCAST_MAX_RECIPIENTS'],
    [{ WORKERS: 'maybe' }, 'WORKERS'],
    [{ EMAIL_DNS_CHECK: 'perhaps' }, 'EMAIL_DNS_CHECK'],
    [{ EMAIL_DNS_CANARY: 'gmail' }, 'EMAIL_DNS_CANARY'],
    [{ EMAIL_DNS_CANARY: 'http://gmail.com' }, 'EMAIL_DNS_CANARY'],
    [{ WEBHOOK_ALLOW_PRIVATE_URLS: 'sometimes' }, 'WEBHOOK_ALLOW_PRIVATE_URLS'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'nonsense' }, 'REDIS_URL'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ BASE_URL: 'ftp://tickets.example.in' }, 'BASE_URL'],
    [{ RAZORPAY_API_URL: 'nonsense' }, 'RAZORPAY_API_URL'],
    [{ RAZORPAY_KEY_ID: 'rzp_live_abc' }, 'RAZORPAY_KEY_SECRET'],
    [{ RAZORPAY_KEY_SECRET: 'only-the-secret' }, 'RAZORPAY_KEY_ID'],
    [{ STAFF_EMAILS: 'notanemail' }, 'STAFF_EMAILS'],
    [{ STAFF_EMAILS: 'ok@example.in, notanemail' }, 'STAFF_EMAILS'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
    [{ DNS_SERVERS: 'dns one:53' }, 'DNS_SERVERS'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ SESSION_SECRET: 'too-short' }, 'SESSION_SECRET'],
    [{ SECRETS_KEY: 'too-short' }, 'SECRETS_KEY'],
    [{ RECONCILE_EVERY_SECONDS: '-1' }, 'RECONCILE_EVERY_SECONDS'],
    [{ RECONCILE_EVERY_SECONDS: '86401' }, 'RECONCILE_EVERY_SECONDS'],
    [{ DOOR_ROSTER_CHECK_MS: '5' }, 'DOOR_ROSTER_CHECK_MS'],
    [{ DOOR_ROSTER_CHECK_MS: 'often' }, 'DOOR_ROSTER_CHECK_MS'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '0' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
    [{ ACCEPT_QUEUES: '0' }, 'ACCEPT_QUEUES'],
    [{ ACCEPT_QUEUES: '65' }, 'ACCEPT_QUEUES'],
    [{ RATE_LIMIT_PER_ACCOUNT_MINUTE: '0' }, 'RATE_LIMIT_PER_ACCOUNT_MINUTE'],
    [{ SIGNUP_LIMIT_PER_HOUR: '0' }, 'SIGNUP_LIMIT_PER_HOUR'],
    [{ VERIFY_MAIL_LIMIT_PER_HOUR: 'five' }, 'VERIFY_MAIL_LIMIT_PER_HOUR'],
    [{ DOOR_ROSTER_MAX_PEOPLE: '0' }, 'DOOR_ROSTER_MAX_PEOPLE'],
    [{ METRICS_PUBLIC: 'perhaps' }, 'METRICS_PUBLIC'],
    // Reachable from other machines without a token: /metrics would be open to them.
    [{ HOST: '0.0.0.0' }, 'METRICS_TOKEN'],
    [{ HOST: '::' }, 'METRICS_TOKEN'],
    [{ HOST: '10.0.0.5' }, 'METRICS_TOKEN'],
    [{ HOST: '0.0.0.0', METRICS_PUBLIC: 'false' }, 'METRICS_TOKEN'],
  ];
  for (const [extra, variable] of bad) {
    it(`${JSON.stringify(extra)} → ConfigError naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(envWith(extra)),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError, `not a ConfigError: ${String(err)}`);
          assert.equal(err.name, 'ConfigError');
          assert.match(err.message, new RegExp(`\\b${variable}\\b`));
          assert.ok(!err.message.includes('\n'), 'message is more than one line');
          assert.ok(err.message.length < 200, 'message is long');
          return true;
        },
      );
    });
  }

  it('a HOST other machines reach starts with METRICS_TOKEN or METRICS_PUBLIC=true; a loopback HOST needs neither', () => {
    assert.equal(
      loadConfig(envWith({ HOST: '0.0.0.0', METRICS_TOKEN: 'scraper-token' })).metricsToken,
      'scraper-token',
    );
    assert.equal(loadConfig(envWith({ HOST: '0.0.0.0', METRICS_PUBLIC: 'true' })).metricsPublic, true);
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      assert.doesNotThrow(() => loadConfig(envWith({ HOST: host })), host);
    assert.equal(
      loadConfig(envWith({ RATE_LIMIT_PER_MINUTE: '100' })).rateLimitPerAccountMinute,
      300,
      'follows the per-key limit',
    );
    assert.equal(
      loadConfig(envWith({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_ACCOUNT_MINUTE: '120' }))
        .rateLimitPerAccountMinute,
      120,
    );
  });

  it('does not echo secrets or database passwords in the message', () => {
    for (const [extra, secret] of [
      [{ SESSION_SECRET: 'tiny-secret' }, 'tiny-secret'],
      [{ SECRETS_KEY: 'tiny-key-text' }, 'tiny-key-text'],
      [{ DATABASE_URL: 'mysql://admin:hunter2-pw@db/x' }, 'hunter2-pw'],
      [{ REDIS_URL: 'http://:redis-pw-123@cache' }, 'redis-pw-123'],
      [{ RAZORPAY_KEY_SECRET: 'rzp-secret-value' }, 'rzp-secret-value'],
    ] as const) {
      assert.throws(
        () => loadConfig(envWith(extra)),
        (err: Error) => !err.message.includes(secret),
        JSON.stringify(extra),
      );
    }
  });
});

describe('loadConfig: generated secrets', () => {
  it('SESSION_SECRET is generated once and kept in DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    assert.ok(first.sessionSecret.length >= 32, 'secret shorter than 32 characters');
    assert.equal(second.sessionSecret, first.sessionSecret);
    // Kept in a file only its owner can read.
    const file = join(dir, 'session-secret');
    assert.equal(readFileSync(file, 'utf8').trim(), first.sessionSecret);
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o077, 0);
    // A fresh DATA_DIR gets its own.
    assert.notEqual(loadConfig({ DATA_DIR: tempDir() }).sessionSecret, first.sessionSecret);
  });

  it('SECRETS_KEY is generated and kept the same way, and differs from the session secret', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    assert.equal(first.secretsKey.length, 32);
    assert.deepEqual(loadConfig({ DATA_DIR: dir }).secretsKey, first.secretsKey);
    assert.notDeepEqual(loadConfig({ DATA_DIR: tempDir() }).secretsKey, first.secretsKey);
    assert.notEqual(readFileSync(join(dir, 'secrets-key'), 'utf8').trim(), first.sessionSecret);
  });

  it('a kept secret file that is empty or short stops start-up, naming the variable', () => {
    // An empty key would make every login fail; a short one would sign sessions weakly.
    for (const [file, variable] of [
      ['session-secret', 'SESSION_SECRET'],
      ['secrets-key', 'SECRETS_KEY'],
    ] as const) {
      for (const content of ['', '\n', 'short\n']) {
        const dir = tempDir();
        writeFileSync(join(dir, file), content);
        assert.throws(
          () => loadConfig({ DATA_DIR: dir }),
          (err: unknown) =>
            err instanceof ConfigError &&
            new RegExp(`\\b${variable}\\b`).test(err.message) &&
            !err.message.includes('\n'),
          `${file} holding ${JSON.stringify(content)}`,
        );
      }
    }
  });

  it('a generated secret file holds the secret and a newline; nothing else is written to DATA_DIR', () => {
    const dir = tempDir();
    const c = loadConfig({ DATA_DIR: dir });
    assert.deepEqual(readdirSync(dir).sort(), ['secrets-key', 'session-secret']);
    assert.equal(readFileSync(join(dir, 'session-secret'), 'utf8'), `${c.sessionSecret}\n`);
  });

  it('a SESSION_SECRET in the environment wins over the kept one', () => {
    const dir = tempDir();
    const kept = loadConfig({ DATA_DIR: dir }).sessionSecret;
    const given = 'x'.repeat(40);
    assert.equal(loadConfig({ DATA_DIR: dir, SESSION_SECRET: given }).sessionSecret, given);
    assert.equal(loadConfig({ DATA_DIR: dir }).sessionSecret, kept);
  });

  it('a session token survives a restart on the same DATA_DIR', async () => {
    const dataDir = tempDir();
    const first = await startServer({ dataDir });
    const account = await signup(first.url).finally(() => first.close());
    const server = await startServer({ dataDir });
    try {
      const r = await call(server.url, 'GET', '/dashboard/api/keys', { token: account.token });
      assert.equal(r.status, 200, r.text);
    } finally {
      await server.close();
    }
  });
});

describe('the process with a bad configuration', () => {
  function run(
    env: Record<string, string>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const childEnv: Record<string, string | undefined> = {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: tempDir(),
      ...env,
    };
    // The child is a service, not a test file.
    delete childEnv.NODE_TEST_CONTEXT;
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        cwd: REPO,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the service did not exit; stderr: ${stderr}`));
      }, 30_000);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolvePromise({ code, stdout, stderr });
      });
    });
  }

  for (const [variable, value] of [
    ['PORT', 'notaport'],
    ['STAFF_EMAILS', 'notanemail'],
  ] as const) {
    it(`${variable}=${value}: exits non-zero with one stderr line naming ${variable}`, async () => {
      const r = await run({ [variable]: value });
      assert.notEqual(r.code, 0);
      assert.notEqual(r.code, null);
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      assert.equal(lines.length, 1, `stderr: ${r.stderr}`);
      assert.match(lines[0]!, new RegExp(`\\b${variable}\\b`));
      assert.doesNotMatch(r.stderr, /\bat .*\.ts:\d+/, 'a stack trace on stderr');
      assert.equal(r.stdout, '', 'it printed as if it started');
    });
  }
});
