// The plan and the membership the membership operations' examples show.
import { EX } from '../../../http/examples.js';

export const EXAMPLE_PLAN = {
  id: EX.planId,
  name: 'Annual membership',
  description: 'Entry to every meetup for a year.',
  amount: 1200,
  currency: 'INR',
  kind: 'fixed_term',
  termMonths: 12,
  period: null,
  totalCount: 0,
  mode: 'test',
  gatewayPlanId: null,
  slug: EX.planSlug,
  createdAt: '2026-11-25T07:51:24.908Z',
};

export const EXAMPLE_MEMBERSHIP = {
  id: EX.membershipId,
  planId: EX.planId,
  name: 'Meera Iyer',
  email: 'meera@example.in',
  phone: '+919812345670',
  status: 'active',
  displayStatus: 'active',
  goodStanding: true,
  validUntil: '2027-11-25T07:51:24.908Z',
  source: 'api',
  subscriptionId: null,
  cancelAtPeriodEnd: false,
  endedAt: null,
  createdAt: '2026-11-25T07:51:24.908Z',
};
