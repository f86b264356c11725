// Four independent OpenAPI validators read the document a real server serves, and none of
// them finds an error, a missing description or an unusable contact: the JSON Schema of the
// specification (@seriousme/openapi-schema-validator), swagger-parser's validation (schema and
// references), Spectral's `spectral:oas` ruleset, and Redocly's `recommended` ruleset (its
// CLI, as a user would run it) with the description and contact rules switched on. Every
// answer's description is also read here, since none of the four flags Fastify's
// placeholder "Default Response".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import spectralCore from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { call } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
type Json = Record<string, any>;

/** A problem about descriptions or the contact, whatever its severity. */
const ABOUT_DESCRIPTIONS = /description|contact/i;

describe('four OpenAPI validators on the served document', { timeout: 300_000 }, () => {
  let server: TestServer;
  let doc: Json;
  before(async () => {
    server = await startServer();
    const r = await call(server.url, 'GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200);
    doc = r.body;
  });
  after(async () => {
    await server.close();
  });

  it('has a description on every operation and every answer, and a contact validators accept', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const where = `${op.operationId} (${method.toUpperCase()} ${path})`;
        if (typeof op.description !== 'string' || op.description.trim() === '')
          missing.push(`${where}: operation description`);
        for (const [status, response] of Object.entries<Json>(op.responses)) {
          if (
            typeof response.description !== 'string' ||
            response.description.trim() === '' ||
            response.description === 'Default Response'
          ) {
            missing.push(`${where} ${status}: answer description (add it to src/openapi/descriptions.ts)`);
          }
        }
      }
    }
    assert.deepEqual(missing, []);
    const contact = doc.info.contact;
    assert.ok(contact?.url || contact?.email, 'info.contact has a URL or an email');
    if (contact.email !== undefined) assert.match(contact.email, /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/);
  });

  it('@seriousme/openapi-schema-validator: valid against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.deepEqual(result.errors ?? [], [], 'schema errors');
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('@apidevtools/swagger-parser: validates (schema and every $ref resolves)', async () => {
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    assert.equal((api as Json).openapi, '3.1.0');
  });

  it('Spectral `spectral:oas`: no error, no warning about descriptions or examples', async () => {
    const { Spectral, Document } = spectralCore;
    const spectral = new Spectral();
    spectral.setRuleset(oas as never);
    const results = await spectral.run(new Document(JSON.stringify(doc), Parsers.Json));
    const explain = (r: (typeof results)[number]) =>
      `${['error', 'warn', 'info', 'hint'][r.severity]} ${String(r.code)} at ${r.path.join('.')}: ${r.message}`;
    // Severity 0 is error; an example that does not match its schema is a warning in spectral:oas.
    const bad = results.filter(
      (r) => r.severity === 0 || ABOUT_DESCRIPTIONS.test(String(r.code)) || /example/i.test(String(r.code)),
    );
    assert.deepEqual(bad.map(explain), []);
  });

  it('Redocly `recommended` (with operation-description and info-contact): no error, no warning about descriptions', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-redocly-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const config = join(dir, 'redocly.yaml');
      writeFileSync(
        config,
        'extends:\n  - recommended\nrules:\n  operation-description: error\n  info-contact: error\n  no-invalid-media-type-examples: error\n',
      );
      const r = spawnSync(
        join(ROOT, 'node_modules/.bin/redocly'),
        ['lint', file, `--config=${config}`, '--format=json'],
        {
          cwd: dir,
          encoding: 'utf8',
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            NO_COLOR: '1',
          },
          timeout: 120_000,
        },
      );
      assert.equal(r.error, undefined, `redocly did not run: ${r.error?.message}`);
      let report: {
        totals: { errors: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      };
      try {
        report = JSON.parse(r.stdout);
      } catch {
        assert.fail(`redocly gave no JSON report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
      }
      const explain = (p: (typeof report.problems)[number]) =>
        `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`;
      const bad = report.problems.filter(
        (p) =>
          p.severity === 'error' || ABOUT_DESCRIPTIONS.test(p.ruleId) || ABOUT_DESCRIPTIONS.test(p.message),
      );
      for (const p of report.problems.filter((x) => !bad.includes(x))) t.diagnostic(explain(p));
      assert.deepEqual(bad.map(explain), []);
      assert.equal(report.totals.errors, 0);
      assert.equal(r.status, 0, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
