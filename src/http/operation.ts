// One API operation per file. A module's routes are a list of operations, each in a file of its
// own under the module's `routes/` folder, holding the route with its schema (its `operationId`,
// summary, description and answers' descriptions) and its examples beside it (`config.examples`,
// src/http/examples.ts): the module's `<m>.routes.ts` lists them (`routes([...])`), and app.ts
// registers the module. Adding an endpoint is one new file and one line in that list.
//
//   // src/modules/keys/routes/revoke-api-key.ts
//   const examples: OperationExamples = { responses: { '200': { ... } } };
//   export const revokeApiKey: Operation<KeysDeps> = (app, deps) =>
//     app.delete('/dashboard/api/keys/:keyId', { config: { auth: SESSION, examples }, schema: { operationId: 'revokeApiKey', ... } }, handler);
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { OperationExamples } from './examples.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation's examples for the OpenAPI document (src/http/examples.ts). */
    examples?: OperationExamples;
  }
}

/** The app a module's routes are registered on (Fastify with the TypeBox type provider). */
export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0];

/** One operation: registers its one route on the app, with what it needs from `deps`. */
export type Operation<D> = (app: RouteApp, deps: D) => unknown;

/** A module's routes plugin: its operations, registered in the order listed. */
export const routes =
  <D>(operations: readonly Operation<D>[]) =>
  (deps: D): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const operation of operations) operation(app, deps);
  };

/**
 * An answer's schema with the sentence the document shows for it (the answer's description;
 * @fastify/swagger's `x-response-description`, which it takes out of the schema itself).
 */
export const answer = <T extends TSchema>(schema: T, description: string): T => ({
  ...schema,
  'x-response-description': description,
});
