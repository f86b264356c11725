// The memberships API (plans, subscribe and confirm, cancel, members), one operation per file
// under routes/.
import { routes } from '../../http/operation.js';
import { cancelMembership } from './routes/cancel-membership.js';
import { confirmMembershipPayment } from './routes/confirm-membership-payment.js';
import { createPlan } from './routes/create-plan.js';
import { listMembers } from './routes/list-members.js';
import { listPlans } from './routes/list-plans.js';
import type { MembershipsDeps } from './routes/membership.js';
import { subscribe } from './routes/subscribe.js';

export const membershipsRoutes = routes<MembershipsDeps>([
  listPlans,
  createPlan,
  subscribe,
  confirmMembershipPayment,
  cancelMembership,
  listMembers,
]);
