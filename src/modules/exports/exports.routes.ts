// CSV exports for organisers' servers (full keys, the key's account and mode); the
// dashboard's download buttons call the same service (dashboard/pages/exports.routes.ts).
// One function per group of routes: an event's registrations, the members, the money.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { sendCsv } from './csv-reply.js';
import { gstDocumentsExport, ledgerExport, membersExport, registrationsExport } from './exports.schemas.js';
import * as exportsService from './exports.service.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];
type Deps = exportsService.ExportDeps;

function registrationExports(app: App, deps: Deps) {
  app.get('/api/v1/events/:id/registrations/export', { config: { auth: FULL_ONLY }, schema: registrationsExport }, async (req, reply) =>
    sendCsv(reply, await exportsService.registrationsCsv(deps, keyPrincipal(req), req.params.id, req.query)),
  );
}

function memberExports(app: App, deps: Deps) {
  app.get('/api/v1/memberships/members/export', { config: { auth: FULL_ONLY }, schema: membersExport }, async (req, reply) =>
    sendCsv(reply, await exportsService.membersCsv(deps, keyPrincipal(req), req.query)),
  );
}

function moneyExports(app: App, deps: Deps) {
  app.get('/api/v1/ledger/export', { config: { auth: FULL_ONLY }, schema: ledgerExport }, async (req, reply) =>
    sendCsv(reply, await exportsService.ledgerCsv(deps, keyPrincipal(req), req.query)),
  );
  app.get('/api/v1/gst/documents/export', { config: { auth: FULL_ONLY }, schema: gstDocumentsExport }, async (req, reply) =>
    sendCsv(reply, await exportsService.gstDocumentsCsv(deps, keyPrincipal(req), req.query)),
  );
}

export const exportsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    registrationExports(app, deps);
    memberExports(app, deps);
    moneyExports(app, deps);
  };
