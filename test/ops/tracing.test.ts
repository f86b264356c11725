// OpenTelemetry traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, a request to a real service
// process produces a span named after its route, with its statements to PostgreSQL as child
// spans, sent over OTLP/HTTP (protobuf) to a receiver on loopback; without the setting, none
// of the tracing code is loaded (no SDK, exporter, instrumentation or module hook). The API
// package alone, a no-op facade, is loaded either way: prom-client's process CPU metric
// requires it for its exemplars.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startProcess, type ServiceProcess } from '../helpers/process.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const PRELOAD = ['--import', new URL('../helpers/loaded-modules.mjs', import.meta.url).href];

interface Export {
  path: string;
  type: string | undefined;
  body: Buffer;
}

/** A receiver of OTLP/HTTP exports on loopback: keeps every request. */
async function receiver(): Promise<{ url: string; exports: Export[]; server: Server }> {
  const exports: Export[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', type: req.headers['content-type'], body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  return { url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`, exports, server };
}

describe('OpenTelemetry traces', () => {
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  let otlp: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    otlp = await receiver();
  });
  after(async () => {
    for (const p of procs) await p.stop();
    otlp.server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function start(
    env: Record<string, string>,
  ): Promise<{ proc: ServiceProcess; modules: () => string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-otel-'));
    dirs.push(dir);
    const file = join(dir, 'modules.json');
    const database: Record<string, string> = onPostgres
      ? { DATABASE_URL: process.env.TEST_DATABASE_URL! }
      : {};
    const proc = await startProcess(
      {
        DATA_DIR: dir,
        WORKERS: 'false',
        EMAIL_DNS_CHECK: 'false',
        LOADED_MODULES_FILE: file,
        ...database,
        ...env,
      },
      60_000,
      PRELOAD,
    );
    procs.push(proc);
    return { proc, modules: () => JSON.parse(readFileSync(file, 'utf8')) as string[] };
  }

  it('sends a span for a request, named after its route, with its statements as child spans', async () => {
    const { proc, modules } = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    assert.equal((await fetch(`${proc.url}/readyz`)).status, 200);
    assert.equal(
      (
        await fetch(
          `${proc.url}/api/v1/events/reg_secret123/registrations/reg_secret456?registrationId=reg_q`,
        )
      ).status,
      401,
    );
    // The batch goes out within its delay; SIGTERM flushes whatever is left.
    await proc.stop();
    const traces = otlp.exports.filter((e) => e.path === '/v1/traces');
    assert.ok(traces.length > 0, 'an export reached the receiver');
    assert.ok(
      traces.every((e) => e.type === 'application/x-protobuf'),
      'as protobuf',
    );
    const body = Buffer.concat(traces.map((e) => e.body)).toString('latin1');
    assert.ok(body.includes('GET /readyz'), 'a span named after the route');
    assert.ok(body.includes('http.route'), 'with the route recorded');
    assert.ok(/postgresql|pg\.query|select 1/i.test(body), 'the request’s statement as a span of its own');
    assert.ok(body.includes('ticketing-service'), 'under the service’s name');
    assert.ok(
      !body.includes('reg_secret') && !body.includes('reg_q'),
      'ids and query strings never reach a span',
    );
    assert.ok(
      modules().some((m) => m.includes('/@opentelemetry/sdk-node/')),
      'the tracing modules were loaded',
    );
  });

  it('loads no OpenTelemetry module without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const { proc, modules } = await start({});
    assert.equal((await fetch(`${proc.url}/readyz`)).status, 200);
    await proc.stop();
    const loaded = modules();
    assert.ok(
      loaded.some((m) => m.includes('/node_modules/pg/')),
      'the list is of the packages it loaded',
    );
    const tracingCode = (m: string) =>
      (m.includes('/@opentelemetry/') && !m.includes('/@opentelemetry/api/')) ||
      m.includes('-in-the-middle/');
    assert.deepEqual(loaded.filter(tracingCode), []);
  });
});
