// Every route's request and response schemas compile (src/http/lazy-schemas.ts): the service
// compiles them at first use, so a schema the compilers refuse would otherwise show only when
// its route is first called. Here all of them compile at once, and a planted bad one is caught.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { compileAllSchemas, lazySchemas } from '../../src/http/lazy-schemas.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('route schemas, compiled at first use', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.close());

  it('compiles every route’s schemas without a refusal', async () => {
    const n = await compileAllSchemas(server.app);
    // Each route with a schema adds its parts and answers; the service has hundreds.
    assert.ok(n > 300, `${n} schemas`);
  });

  it('validates and serializes as Fastify’s own compilers do, errors included', async () => {
    const schemas = lazySchemas();
    const app = Fastify({ schemaController: schemas.schemaController });
    schemas.attach(app);
    app.post(
      '/x',
      {
        schema: {
          body: {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer' } },
            additionalProperties: false,
          },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      async (req) => ({ n: (req.body as { n: number }).n, secret: 'not in the schema' }),
    );
    const ok = await app.inject({ method: 'POST', url: '/x', payload: { n: 2 } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.body, '{"n":2}');
    const bad = await app.inject({ method: 'POST', url: '/x', payload: { n: 'two' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /body\/n must be integer/);
    await app.close();
  });

  it('throws the first schema the compilers refuse', async () => {
    const schemas = lazySchemas();
    const app = Fastify({ schemaController: schemas.schemaController });
    schemas.attach(app);
    app.get(
      '/bad',
      { schema: { querystring: { type: 'object', properties: { q: { type: 'nonsense' } } } } },
      async () => ({}),
    );
    await assert.rejects(compileAllSchemas(app), /nonsense|type must be|schema is invalid/i);
    await app.close();
  });
});
