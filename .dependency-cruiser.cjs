// Dependencies point one way. Checked by test/architecture/dependencies.test.ts in `npm test`
// (which also holds the allow-list of known violations, .dependency-cruiser-known.json, that can
// only shrink). Run by hand: npx depcruise src --config .dependency-cruiser.cjs
//
// The allowed direction, lowest first; a layer imports only from the layers below it:
//
//   src/db                       table types, connection, the embedded server, migrations
//   src/lib, src/jobs,           primitives (errors, clock, ids, money, dates, event times, …);
//   src/config.ts                the job queue; the only reader of process.env
//   src/http                     HTTP plumbing: the auth hook, error handler, body parsing,
//                                rate limits, accept queues, paging fields, shared schemas
//   src/modules/*                the features; among themselves no cycles (file or folder)
//                                and no routes file importing another module's routes file
//   src/dashboard                the organiser's dashboard, an application of its own over the
//                                modules: its pages read and change through their services
//   src/app.ts, src/deps.ts,     composition: the only code that knows every module
//   src/module-deps.ts,
//   src/server.ts
//
// Nothing in src/ imports from test/ or bench/. Type-only imports count like any other.
//
// The modules' table declarations (src/modules/<m>/<m>.tables.ts, src/jobs/jobs.tables.ts,
// src/dashboard/dashboard.tables.ts) sit
// next to their module's code but belong to the db layer: src/db/database.ts composes them into
// `Database`. They are left out of this cruise, and scripts/check-ownership.mjs (in npm test) keeps
// them at the bottom instead: a tables file imports only kysely and src/db/columns.ts, and only
// src/db/database.ts and its own module import it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A file that reaches itself through its imports.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'A folder (a module, or lib/http/db/jobs) that reaches itself through another folder.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-routes-to-other-routes',
      comment: "A routes file calls services; another module's routes are never imported.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/.*\\.routes\\.ts$' },
      to: { path: '^src/modules/[^/]+/.*\\.routes\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'src-not-to-test-or-bench',
      comment: 'The service never imports its tests or benchmarks.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'modules-below-composition',
      comment: 'Modules and the dashboard do not import app.ts, deps.ts, module-deps.ts or server.ts (nor their types): those compose them.',
      severity: 'error',
      from: { path: '^src/(modules|dashboard)/' },
      to: { path: '^src/(app|deps|module-deps|server)\\.ts$' },
    },
    {
      name: 'modules-below-dashboard',
      comment: 'The dashboard is an application over the modules: no module imports it.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/dashboard/' },
    },
    {
      name: 'below-modules',
      comment: 'lib/, http/, jobs/, db/ and config.ts know no module and no composition.',
      severity: 'error',
      from: { path: '^src/(lib/|http/|jobs/|db/|config\\.ts$)' },
      to: { path: '^src/(modules/|dashboard/|(app|deps|module-deps|server)\\.ts$)' },
    },
    {
      name: 'db-lowest',
      comment: 'db/ (table types, connection, migrations) is the lowest layer.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(lib|http|jobs)/' },
    },
    {
      name: 'lib-below-http',
      comment: 'lib/ holds primitives that know nothing of HTTP: it never imports http/.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/http/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '\\.tables\\.ts$'] },
  },
};
