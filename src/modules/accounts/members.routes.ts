// The organisation's members, invitations and the choice of organisation
// (docs/decisions/25-organiser-teams-and-roles.md), one operation per file under routes/members/.
import { routes } from '../../http/operation.js';
import { acceptInvitation } from './routes/members/accept-invitation.js';
import { changeMember } from './routes/members/change-member.js';
import { chooseOrganisation } from './routes/members/choose-organisation.js';
import { inviteMember } from './routes/members/invite-member.js';
import { listMembers } from './routes/members/list-members.js';
import { listOrganisations } from './routes/members/list-organisations.js';
import type { MembersRouteDeps } from './routes/members/member.js';
import { removeMember } from './routes/members/remove-member.js';
import { withdrawInvitation } from './routes/members/withdraw-invitation.js';

export const membersRoutes = routes<MembersRouteDeps>([
  listMembers,
  inviteMember,
  changeMember,
  removeMember,
  withdrawInvitation,
  acceptInvitation,
  listOrganisations,
  chooseOrganisation,
]);
