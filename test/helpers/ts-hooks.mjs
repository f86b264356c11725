// Preloaded (`--import`) into every test process of a whole run (scripts/run-tests.mjs): it
// runs the TypeScript sources as tsx does, with esbuild (the transformer tsx uses) and the
// same `.js`-names-the-`.ts` resolution, but on Node's synchronous module hooks
// (module.registerHooks) in the loading thread. tsx's hooks run in a thread of their own, and
// a test process loads close to two thousand modules (the service, Fastify, TypeBox, Kysely):
// each crossing to that thread and back made loading the service the largest fixed cost of a
// test file. Each file's JavaScript is kept in TS_HOOKS_CACHE (by its path and content; a whole
// run gives a folder of its own, removed at its end, else one in the system's temporary
// directory), so a run transforms each file once. esbuild is a named development dependency,
// at the version tsx uses. On a Node without registerHooks (before 22.15) this falls back to
// tsx itself.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof nodeModule.registerHooks !== 'function') {
  await import('tsx');
} else {
  const { transformSync } = await import('esbuild');
  const cache = process.env.TS_HOOKS_CACHE || join(tmpdir(), 'ts-hooks-cache');
  mkdirSync(cache, { recursive: true });
  const local = (spec) => spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('file:');

  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      // `./x.js` in a TypeScript file names `./x.ts`, as tsc and tsx resolve it.
      if (local(specifier) && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
        const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
        if (existsSync(ts)) return { url: ts.href, format: 'module', shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
      const file = fileURLToPath(url);
      const source = readFileSync(file, 'utf8');
      const kept = join(
        cache,
        `${createHash('sha1').update(file).update('\0').update(source).digest('hex')}.js`,
      );
      let code;
      try {
        code = readFileSync(kept, 'utf8');
      } catch {
        code = transformSync(source, {
          loader: 'ts',
          format: 'esm',
          target: 'node22',
          sourcemap: 'inline',
          sourcefile: file,
          // As tsconfig.json's target (ES2022) has tsc emit class fields.
          tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
        }).code;
        // Written whole, then renamed: another test process may be reading the same file.
        const part = `${kept}.${process.pid}`;
        writeFileSync(part, code);
        renameSync(part, kept);
      }
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
  process.setSourceMapsEnabled(true);
}
