// Route schemas compiled at their first use, not at start. Fastify compiles every route's
// request validator (Ajv, through @fastify/ajv-compiler) and response serializer
// (fast-json-stringify) while the app gets ready: for this service's ~280 routes that was most of
// the start's CPU, paid again by every process that starts, while a process serves few of them
// soon. Here the same compilers, with the same options, run when a route's part is first
// validated or serialized; the compiled function is kept for the process's life.
//
// What this moves: a schema the compilers refuse shows at its route's first request (answered
// 500) instead of at start. `compileAllSchemas(app)` compiles every one at once and throws the
// first refusal; test/architecture/route-schemas.test.ts runs it, so a bad schema fails CI.
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Compiler<F> = (route: { method?: string; url?: string }) => F;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;

const pending = new WeakMap<object, Set<() => void>>();

/** The `schemaController.compilersFactory` for Fastify, its compilations kept in `into`. */
export function lazyCompilersFactory(into: Set<() => void>) {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    buildValidator(external: unknown, options: unknown): Compiler<Validate> {
      const compile = (validators as unknown as (e: unknown, o: unknown) => Compiler<Validate>)(
        external,
        options,
      );
      return (route) => {
        let fn: Validate | undefined;
        const now = () => (fn ??= compile(route));
        into.add(now);
        // Fastify reads a failed validation's errors from the function it was given.
        const lazy: Validate = (data) => {
          const f = now();
          const ok = f(data);
          lazy.errors = f.errors;
          return ok;
        };
        return lazy;
      };
    },
    buildSerializer(external: unknown, options: unknown): Compiler<Serialize> {
      const compile = (serializers as unknown as (e: unknown, o: unknown) => Compiler<Serialize>)(
        external,
        options,
      );
      return (route) => {
        let fn: Serialize | undefined;
        const now = () => (fn ??= compile(route));
        into.add(now);
        return (data) => now()(data);
      };
    },
  };
}

/** Fastify options that compile this app's route schemas at first use (see above). */
export function lazySchemas(): { schemaController: object; attach(app: object): void } {
  const into = new Set<() => void>();
  return {
    schemaController: { compilersFactory: lazyCompilersFactory(into) },
    attach: (app) => void pending.set(app, into),
  };
}

/** Compiles every route schema of `app` not compiled yet; throws the first the compilers refuse. */
export async function compileAllSchemas(app: { ready(): PromiseLike<unknown> }): Promise<number> {
  await app.ready();
  const all = pending.get(app);
  if (!all) throw new Error('this app does not compile its schemas lazily');
  for (const compile of all) compile();
  return all.size;
}
