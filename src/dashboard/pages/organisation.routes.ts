// Choosing the organisation a dashboard session works in, and accepting an invitation's link
// (docs/decisions/25-organiser-teams-and-roles.md). A link opened signed out goes through sign-in
// (or sign-up) and comes back here.
import type { FastifyInstance } from 'fastify';
import { sessionPrincipal } from '../../http/auth.js';
import * as members from '../../modules/accounts/members.service.js';
import { csrfField } from '../layout.js';
import { html as markup } from '../html.js';
import * as sessions from '../sessions.js';
import { PAGE, type PageContext } from '../page-context.js';

type TokenQuery = { Querystring: { token?: string } };

export function organisationPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form } = ctx;

  app.post('/dashboard/organisation', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    const chosen = await members.tokenFor(
      deps,
      s.personId,
      form(req).text('organisationId', 'Organisation', 100),
    );
    await sessions.chooseOrganisation(deps.db, s.sessionId!, chosen.organisationId);
    return done(req, reply, '/dashboard/events', `You now work in this organisation as ${chosen.role}.`);
  });

  app.get<TokenQuery>('/dashboard/invitations/accept', PAGE, async (req, reply) =>
    show(req, reply, 'account', 'Accept the invitation', (v) => {
      const token = typeof req.query.token === 'string' ? req.query.token.slice(0, 128) : '';
      return markup`<div class="card">
<p>Accept the invitation as <span class="mono">${v.email}</span>? It works only for the address it was sent to.</p>
<form method="post" action="/dashboard/invitations/accept">${csrfField(v.csrf)}<input type="hidden" name="token" value="${token}"><button>Accept</button></form>
</div>`;
    }),
  );

  app.post('/dashboard/invitations/accept', PAGE, async (req, reply) => {
    const s = sessionPrincipal(req);
    const joined = await members.accept(
      deps,
      { personId: s.personId, email: s.email },
      form(req).text('token', 'Token', 128),
    );
    await sessions.chooseOrganisation(deps.db, s.sessionId!, joined.organisationId);
    return done(req, reply, '/dashboard/events', `You joined the organisation as ${joined.role}.`);
  });
}
