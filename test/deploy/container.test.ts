// The container files (docs/decisions/19-developers-and-operators.md), read by parsers of their formats since no
// Docker engine runs here: the Dockerfile builds in one stage and runs from another as a
// non-root user with production dependencies and a health check; compose.yaml runs three
// identical instances behind a proxy on one PostgreSQL and one Redis.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DockerfileParser } from 'dockerfile-ast';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { START_ENV } from '../helpers/process.js';

/** The environment the image's ENV lines set. */
const imageEnv = (): Record<string, string> =>
  Object.fromEntries(
    DockerfileParser.parse(readFileSync('Dockerfile', 'utf8'))
      .getInstructions()
      .filter((i) => i.getKeyword() === 'ENV')
      .flatMap((i) =>
        (i.getArgumentsContent() ?? '').split(/\s+/).map((kv) => kv.split('=') as [string, string]),
      ),
  );

test('the Dockerfile: multi-stage on Node 22, production dependencies, non-root, a health check', () => {
  const file = DockerfileParser.parse(readFileSync('Dockerfile', 'utf8'));
  const froms = file.getFROMs();
  assert.ok(froms.length >= 2, 'a build stage and a run stage');
  for (const f of froms) assert.match(`${f.getImageName()}:${f.getImageTag()}`, /^node:22[.-]/);
  const run = file.getInstructions();
  const last = froms.at(-1)!;
  const after = (i: { getRange(): { start: { line: number } } }) =>
    i.getRange().start.line > last.getRange().start.line;
  const runStage = run.filter(after);
  const args = (keyword: string) =>
    runStage.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? '');
  assert.ok(
    args('RUN').some((a) => /npm ci\b.*--omit=dev/.test(a)),
    'npm ci --omit=dev in the run stage',
  );
  const users = args('USER');
  assert.ok(users.length > 0 && users.every((u) => u !== 'root' && u !== '0'), 'runs as a non-root user');
  // A user of its own, made in the run stage: any process of the same user could join the
  // port's SO_REUSEPORT group and take a share of its connections (docs/operations/production.md).
  assert.ok(
    users.every((u) => u !== 'node' && u !== '1000'),
    'not the image’s shared node user',
  );
  const user = users.at(-1)!;
  assert.ok(
    args('RUN').some((a) => new RegExp(`useradd\\b[^&]*\\b${user}\\b`).test(a)),
    `the run stage creates ${user}`,
  );
  const copies = runStage.filter((i) => i.getKeyword() === 'COPY').map((i) => i.getTextContent());
  assert.ok(
    copies.some((a) => /--from=build/.test(a)),
    'the compiled service comes from the build stage',
  );
  assert.equal(file.getHEALTHCHECKs().length, 1);
  assert.match(file.getHEALTHCHECKs()[0]!.getArgumentsContent() ?? '', /readyz/);
  assert.match(args('CMD').join(' '), /dist\/server\.js/);
});

test('compose.yaml: three identical instances, a proxy in front, one PostgreSQL and one Redis', () => {
  const doc = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
    services: Record<string, any>;
  };
  const instances = Object.entries(doc.services).filter(([, s]) => s.build !== undefined);
  assert.equal(instances.length, 3, 'three service instances');
  const envs = instances.map(([, s]) => s.environment as Record<string, string>);
  for (const e of envs) assert.deepEqual(e, envs[0], 'every instance has the same settings');
  const env = envs[0]!;
  assert.match(env.DATABASE_URL!, /^postgres:\/\/.*@postgres:5432\//);
  assert.match(env.REDIS_URL!, /^redis:\/\/redis:6379/);
  for (const name of ['SESSION_SECRET', 'SECRETS_KEY', 'TRUST_PROXY', 'BASE_URL'])
    assert.ok(env[name], `${name} is set for every instance`);
  // The settings are ones the service accepts, with the image's own (HOST=0.0.0.0: reachable
  // from other machines, so /metrics must be guarded).
  const image = imageEnv();
  assert.equal(image.HOST, '0.0.0.0');
  assert.ok(env.METRICS_TOKEN, 'METRICS_TOKEN is set for every instance');
  assert.doesNotThrow(() => loadConfig({ ...image, ...env, DATA_DIR: '/tmp/compose-config-check' }));
  assert.throws(
    () => loadConfig({ ...image, DATA_DIR: '/tmp/compose-config-check' }),
    /METRICS_TOKEN/,
    'the image alone refuses to start with /metrics open',
  );
  for (const [, s] of instances) {
    assert.equal(s.depends_on.postgres.condition, 'service_healthy');
    assert.equal(s.depends_on.redis.condition, 'service_healthy');
  }
  assert.ok(doc.services.postgres?.image?.startsWith('postgres:'));
  assert.ok(doc.services.redis?.image?.startsWith('redis:'));
  const proxy = doc.services.proxy;
  assert.ok(proxy, 'a proxy');
  const conf = readFileSync('deploy/nginx.conf', 'utf8');
  for (const [name] of instances)
    assert.match(conf, new RegExp(`server ${name}:3000`), `the proxy sends to ${name}`);
  assert.ok(proxy.volumes.some((v: string) => v.startsWith('./deploy/nginx.conf:')));
});

test('npm start and the image start the service with the same allocator setting the benchmarks use', () => {
  const image = imageEnv();
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  assert.ok(Object.keys(START_ENV).length > 0);
  for (const [name, value] of Object.entries(START_ENV)) {
    assert.equal(image[name], value, `the image sets ${name}`);
    assert.ok(start.includes(`${name}=${value} node dist/server.js`), `npm start sets ${name}`);
  }
});
