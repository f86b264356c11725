// The Team screen's page and forms (docs/decisions/25-organiser-teams-and-roles.md): the same
// members service the API calls, so the rules (the last owner stays, only an owner touches an
// owner, a door member's events) answer here as they do there.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessionPrincipal } from '../../http/auth.js';
import * as members from '../../modules/accounts/members.service.js';
import * as door from '../../modules/checkin/door.service.js';
import * as events from '../../modules/events/events.service.js';
import type { Form } from '../form.js';
import * as sessions from '../sessions.js';
import { teamScreen } from '../views/team.js';
import { PAGE, type PageContext } from '../page-context.js';

type MemberParams = { Params: { userId: string } };

export function teamPages(app: FastifyInstance, ctx: PageContext): void {
  const { deps, show, done, form, org } = ctx;
  const membersDeps: members.MembersDeps = {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    jobs: deps.jobs,
    eventAccounts: async (ids) =>
      new Map((await events.findEventsById(deps.db, ids)).map((e) => [e.id, e.account_id])),
    endDoorPasses: door.endMemberPasses,
  };
  const actor = (req: FastifyRequest): members.Actor => {
    const s = sessionPrincipal(req);
    return { userId: s.userId, personId: s.personId, email: s.email, isStaff: s.isStaff, role: s.role };
  };
  /** The role and its events as the form sends them: no events ticked is all of them (or none, for the door). */
  const roleInput = (f: Form) => {
    const chosen = f.all('events');
    return { role: f.required('role', 'Role', 20), events: chosen.length > 0 ? chosen : null };
  };

  app.get('/dashboard/team', PAGE, async (req, reply) =>
    show(req, reply, 'team', 'Team', async (v) => {
      const [team, list] = await Promise.all([
        members.listMembers(deps, v.s.userId),
        events.listEvents(deps.db, org(req)),
      ]);
      return teamScreen({
        csrf: v.csrf,
        viewerRole: v.s.role ?? 'viewer',
        viewerId: v.s.personId,
        members: team.members.map((m) => ({
          userId: m.user_id,
          email: m.email,
          name: m.name,
          role: m.role,
          events: m.event_ids,
          joinedAt: m.created_at.toISOString(),
          twoFactor: m.two_factor,
        })),
        invitations: team.invitations.map((i) => ({
          id: i.id,
          email: i.email,
          role: i.role,
          events: i.event_ids,
          expiresAt: i.expires_at.toISOString(),
        })),
        events: list.map((e) => ({ id: e.id, title: e.title })),
      });
    }),
  );

  app.post('/dashboard/team/invitations', PAGE, async (req, reply) => {
    const f = form(req);
    const email = f.required('email', 'Email address', 254);
    await members.invite(membersDeps, actor(req), { email, ...roleInput(f) });
    return done(req, reply, '/dashboard/team', `Invitation sent to ${email}. The link works for 7 days.`);
  });

  app.post<{ Params: { invitationId: string } }>(
    '/dashboard/team/invitations/:invitationId/withdraw',
    PAGE,
    async (req, reply) => {
      await members.withdrawInvitation(membersDeps, actor(req), req.params.invitationId);
      return done(req, reply, '/dashboard/team', 'Invitation withdrawn: its link no longer works.');
    },
  );

  app.post<MemberParams>('/dashboard/team/members/:userId', PAGE, async (req, reply) => {
    const row = await members.changeMember(membersDeps, actor(req), req.params.userId, roleInput(form(req)));
    return done(req, reply, '/dashboard/team', `Role changed to ${row.role.replace(/_/g, ' ')}.`);
  });

  app.post<MemberParams>('/dashboard/team/members/:userId/remove', PAGE, async (req, reply) => {
    const me = actor(req);
    await members.removeMember(membersDeps, me, req.params.userId);
    // Leaving takes the person out of this organisation: the dashboard goes on in the first one left.
    if (req.params.userId === me.personId) {
      const [first] = await members.listOrganisationsOf(deps.db, me.personId);
      if (first)
        await sessions.chooseOrganisation(deps.db, sessionPrincipal(req).sessionId!, first.organisation_id);
      return done(req, reply, '/dashboard/events', 'You left the organisation.');
    }
    return done(req, reply, '/dashboard/team', 'Removed from the team. What they made stays.');
  });
}
