// The committed OpenAPI snapshot and the SDK made from it stay true to what the service
// serves, and a breaking change to the document fails here unless the snapshot changes with
// it (`npm run openapi`). Changes are classified by api-smart-diff (OpenAPI 3.x aware).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { apiCompare } from 'api-smart-diff';
import { NAMED_SCHEMAS } from '../../src/openapi/components.js';
import { decorateSchema } from '../../src/openapi/route-docs.js';
import {
  readSnapshot,
  SDK_OPERATIONS,
  SDK_TYPES,
  sdkOperations,
  sdkTypes,
  servedDocument,
} from './snapshot.js';

type Json = Record<string, any>;

/** The breaking changes from `before` to `after`, as sentences. */
export function breakingChanges(before: Json, after: Json): string[] {
  return apiCompare(before, after)
    .diffs.filter((d) => d.type === 'breaking')
    .map((d) => `${d.action} ${d.path.join('/')}${d.description ? `: ${d.description}` : ''}`);
}

describe('the OpenAPI snapshot and the SDK', { timeout: 300_000 }, () => {
  let served: Json;
  let snapshot: Json;
  before(async () => {
    served = await servedDocument();
    snapshot = readSnapshot();
  });

  it('the served document is the committed snapshot (a breaking change fails unless the snapshot changes with it)', () => {
    if (JSON.stringify(served) === JSON.stringify(snapshot)) return;
    const all = apiCompare(snapshot, served).diffs;
    const breaking = all.filter((d) => d.type === 'breaking').map((d) => `${d.action} ${d.path.join('/')}`);
    assert.deepEqual(
      breaking,
      [],
      'BREAKING changes to the API since the snapshot; if they are meant, run `npm run openapi` and commit openapi/openapi.json with them',
    );
    assert.fail(
      `the document moved since the snapshot (${all.length} changes, none breaking, e.g. ${all
        .slice(0, 3)
        .map((d) => `${d.type} ${d.action} ${d.path.join('/')}`)
        .join('; ')}): run \`npm run openapi\``,
    );
  });

  it('regenerating the SDK from the snapshot changes nothing', async () => {
    assert.equal(
      readFileSync(SDK_TYPES, 'utf8'),
      await sdkTypes(snapshot),
      'sdk/schema.d.ts is stale: run `npm run openapi`',
    );
    assert.equal(
      readFileSync(SDK_OPERATIONS, 'utf8'),
      sdkOperations(snapshot),
      'sdk/operations.ts is stale: run `npm run openapi`',
    );
  });

  it('names every operation once, in camelCase, and every model the SDK exports', () => {
    const seen = new Map<string, string>();
    for (const [path, item] of Object.entries<Json>(served.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.match(op.operationId, /^[a-z][A-Za-z0-9]*$/, `the operationId of ${where}`);
        assert.ok(
          !seen.has(op.operationId),
          `operationId ${op.operationId} of ${where} is also ${seen.get(op.operationId)}'s`,
        );
        seen.set(op.operationId, where);
      }
    }
    for (const name of Object.keys(NAMED_SCHEMAS))
      assert.ok(served.components.schemas[name], `components.schemas.${name}`);
  });

  it('refuses to start with a documented route that names no operation', () => {
    const route = {
      url: '/api/v1/nameless',
      method: 'GET',
      config: { auth: { kind: 'public' } },
      schema: { summary: 'x' },
    };
    assert.throws(() => decorateSchema(route), /GET \/api\/v1\/nameless has no operationId/);
    decorateSchema({ ...route, schema: { summary: 'x', operationId: 'getNameless' } });
  });

  it('classifies a deliberately breaking change as breaking, and an addition as not', () => {
    const removedField = structuredClone(snapshot);
    delete removedField.components.schemas.Event.properties.slug;
    removedField.components.schemas.Event.required = removedField.components.schemas.Event.required.filter(
      (f: string) => f !== 'slug',
    );
    assert.ok(breakingChanges(snapshot, removedField).length > 0, 'a field removed from an answer');

    const newRequired = structuredClone(snapshot);
    newRequired.paths['/api/v1/events'].post.requestBody.content['application/json'].schema.required.push(
      'location',
    );
    assert.ok(breakingChanges(snapshot, newRequired).length > 0, 'a request field made required');

    const removedOperation = structuredClone(snapshot);
    delete removedOperation.paths['/api/v1/events/{id}/registrations/{registrationId}/transfer'];
    assert.ok(breakingChanges(snapshot, removedOperation).length > 0, 'an operation removed');

    const added = structuredClone(snapshot);
    added.paths['/api/v1/events'].post.requestBody.content['application/json'].schema.properties.newOptional =
      { type: 'string' };
    assert.deepEqual(breakingChanges(snapshot, added), [], 'an optional request field added');
  });
});
