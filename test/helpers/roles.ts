// Members of an organisation in each role, for the role tests (docs/decisions/25-organiser-teams-and-roles.md):
// each signs up in the dashboard, joins the organisation in its role (its dashboard session then
// works there), and has a session token for the session API too.
import type { Membership } from '../../src/http/permissions.js';
import { DashboardClient } from './dashboard.js';
import { uniqueEmail } from './http.js';
import { joinOrganisation, userByEmail } from './rows.js';
import type { TestServer } from './server.js';

export interface RoleMember {
  label: string;
  membership: Membership;
  email: string;
  personId: string;
  token: string;
  dash: DashboardClient;
}

export async function addMembers(
  server: TestServer,
  organisationId: string,
  variants: readonly [string, Membership][],
): Promise<RoleMember[]> {
  const out: RoleMember[] = [];
  for (const [label, membership] of variants) {
    const email = uniqueEmail(membership.role);
    const dash = new DashboardClient(server.url);
    await dash.signup(email);
    const person = (await userByEmail(server, email))!;
    await joinOrganisation(
      server,
      organisationId,
      person.id,
      membership.role,
      membership.eventIds as string[],
    );
    const { idToken } = await server.deps.sessions.issue(person.id, 0, organisationId);
    out.push({ label, membership, email, personId: person.id, token: idToken, dash });
  }
  return out;
}
