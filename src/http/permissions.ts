// Roles as one table of permissions (docs/decisions/25-organiser-teams-and-roles.md): what each
// role may do, and what each dashboard page and session route needs. The auth hook reads only
// this file to decide; the authorisation matrix test generates role × route from it, and a
// session route missing here is refused to everyone (and fails that test).
import type { Role } from '../db/columns.js';

export const ROLES: readonly Role[] = ['owner', 'admin', 'finance', 'event_manager', 'door', 'viewer'];

export type Permission =
  /**
   * The person's own sign-in (password, two-factor, sign-out, verification, choosing an
   * organisation): any signed-in person, and the only routes open to a member who must enrol in
   * two-factor first.
   */
  | 'self'
  /** Reading events, registrations, memberships, the activity log and the test inbox. */
  | 'read'
  /** The dashboard's events list, every member's landing page (a door member is sent on to their door page). */
  | 'events.list'
  /** Events, tracks, tiers, questions, promo codes, publishing, registration actions, broadcasts, door passes, waitlists. */
  | 'events.manage'
  /** The door screen and check-in. */
  | 'door'
  /** Seating plans (used by events). */
  | 'seating.manage'
  /** Balance, ledger, payouts list. */
  | 'money.read'
  /** Withdrawals and payout settings. */
  | 'payouts'
  /** Marking bookings paid outside the gateway: the mark-paid button and bank statement uploads. */
  | 'payments.record'
  /** GST settings. */
  | 'gst.manage'
  /** Exports of personal data and money (CSV). */
  | 'exports'
  /** Membership plans. */
  | 'memberships.manage'
  /** API keys and webhooks. */
  | 'developers'
  /** The organisation's own settings (publishing access, mail settings). */
  | 'account.manage'
  /** Inviting, changing and removing members. */
  | 'members.manage';

const ALL: readonly Role[] = ROLES;
/** Who holds each permission: the one place a role's powers are written. */
export const PERMISSION_ROLES: Readonly<Record<Permission, readonly Role[]>> = {
  self: ALL,
  read: ['owner', 'admin', 'finance', 'event_manager', 'viewer'],
  'events.list': ALL,
  'events.manage': ['owner', 'admin', 'event_manager'],
  door: ['owner', 'admin', 'event_manager', 'door'],
  'seating.manage': ['owner', 'admin', 'event_manager'],
  'money.read': ['owner', 'admin', 'finance', 'viewer'],
  payouts: ['owner', 'finance'],
  'payments.record': ['owner', 'admin', 'finance'],
  'gst.manage': ['owner', 'admin', 'finance'],
  exports: ['owner', 'admin', 'finance'],
  'memberships.manage': ['owner', 'admin'],
  developers: ['owner', 'admin'],
  'account.manage': ['owner', 'admin'],
  'members.manage': ['owner', 'admin'],
};

/**
 * What a route acts on. `event`: one event, its id in the `id` path parameter, so a member
 * limited to listed events passes only on those; `account`: the whole organisation, closed to
 * members limited to listed events; `listing`: the events list, open to them too (it shows
 * only their events).
 */
export type Scope = 'event' | 'account' | 'listing';

export interface RouteNeed {
  permission: Permission;
  scope: Scope;
}

const need = (permission: Permission, scope: Scope = 'account'): RouteNeed => ({ permission, scope });
const SELF = need('self');
const READ = need('read');
const EV_READ = need('read', 'event');
const EV_MANAGE = need('events.manage', 'event');

/** Every session route and dashboard page (`METHOD url`, Fastify's form), and what it needs. */
export const ROUTE_NEEDS: Readonly<Record<string, RouteNeed>> = {
  // The person's own sign-in.
  'POST /auth/verify': SELF,
  'POST /auth/password/change': SELF,
  'POST /auth/logout-everywhere': SELF,
  'POST /auth/verify/resend': SELF,
  'GET /dashboard/verify': SELF,
  'POST /dashboard/verify': SELF,
  'POST /dashboard/verify/resend': SELF,
  'POST /dashboard/logout': SELF,
  'POST /dashboard/mode': SELF,
  'GET /dashboard/account': SELF,
  'POST /dashboard/password/change': SELF,
  'POST /dashboard/logout-everywhere': SELF,
  'GET /dashboard/api/organisations': SELF,
  'POST /dashboard/api/organisations/current': SELF,
  'POST /dashboard/organisation': SELF,
  'GET /dashboard/invitations/accept': SELF,
  'POST /dashboard/invitations/accept': SELF,
  'POST /dashboard/api/invitations/accept': SELF,
  // The person's own two-factor sign-in (reachable while an organisation requires enrolment).
  'GET /dashboard/api/two-factor': SELF,
  'POST /dashboard/api/two-factor/enrol': SELF,
  'POST /dashboard/api/two-factor/confirm': SELF,
  'POST /dashboard/api/two-factor/disable': SELF,
  'POST /dashboard/api/two-factor/recovery-codes': SELF,
  'GET /dashboard/two-factor': SELF,
  'POST /dashboard/two-factor/enrol': SELF,
  'POST /dashboard/two-factor/confirm': SELF,
  'POST /dashboard/two-factor/disable': SELF,
  'POST /dashboard/two-factor/recovery-codes': SELF,
  // Members: the API and the Team screen.
  'GET /dashboard/api/members': need('members.manage'),
  'POST /dashboard/api/members': need('members.manage'),
  'PATCH /dashboard/api/members/:userId': need('members.manage'),
  'DELETE /dashboard/api/members/:userId': need('members.manage'),
  'DELETE /dashboard/api/invitations/:invitationId': need('members.manage'),
  'GET /dashboard/team': need('members.manage'),
  'POST /dashboard/team/invitations': need('members.manage'),
  'POST /dashboard/team/invitations/:invitationId/withdraw': need('members.manage'),
  'POST /dashboard/team/members/:userId': need('members.manage'),
  'POST /dashboard/team/members/:userId/remove': need('members.manage'),
  // The organisation's settings.
  'PUT /dashboard/api/two-factor/requirement': need('account.manage'),
  'POST /dashboard/two-factor/requirement': need('account.manage'),
  // Keys, webhooks and the organisation's settings.
  'GET /dashboard/api/keys': need('developers'),
  'POST /dashboard/api/keys': need('developers'),
  'DELETE /dashboard/api/keys/:keyId': need('developers'),
  'GET /dashboard/developers': need('developers'),
  'POST /dashboard/developers/keys': need('developers'),
  'POST /dashboard/developers/keys/:keyId/revoke': need('developers'),
  'POST /dashboard/developers/webhook': need('developers'),
  'POST /dashboard/developers/webhook/rotate': need('developers'),
  'POST /dashboard/developers/webhook/delete': need('developers'),
  'GET /dashboard/api/publishing-access': READ,
  'POST /dashboard/api/publishing-access': need('account.manage'),
  'POST /dashboard/publishing-access': need('account.manage'),
  // Money.
  'GET /dashboard/api/balance': need('money.read'),
  'GET /dashboard/api/ledger': need('money.read'),
  'GET /dashboard/api/payouts': need('money.read'),
  'GET /dashboard/api/payouts/:payoutId': need('money.read'),
  'POST /dashboard/api/payouts': need('payouts'),
  'GET /dashboard/money': need('money.read'),
  'GET /dashboard/money/ledger': need('money.read'),
  'POST /dashboard/money/settle-now': need('payouts'),
  'POST /dashboard/money/payouts': need('payouts'),
  'POST /dashboard/money/payouts/:payoutId/:outcome': need('payouts'),
  'GET /dashboard/account/gst': need('money.read'),
  'GET /dashboard/money/statements': need('payments.record'),
  'POST /dashboard/money/statements': need('payments.record'),
  'POST /dashboard/money/statements/columns': need('payments.record'),
  'POST /dashboard/events/:id/registrations/:rid/mark-paid': need('payments.record', 'event'),
  'POST /dashboard/account/gst': need('gst.manage'),
  // Exports.
  'GET /dashboard/events/:id/registrations/export': need('exports', 'event'),
  'GET /dashboard/memberships/export': need('exports'),
  'GET /dashboard/money/ledger/export': need('exports'),
  'GET /dashboard/account/gst/export': need('exports'),
  // Events.
  'DELETE /api/v1/events/:id': EV_MANAGE,
  'GET /dashboard/events': need('events.list', 'listing'),
  'GET /dashboard/events/new': need('events.manage'),
  'POST /dashboard/events': need('events.manage'),
  'GET /dashboard/events/:id': EV_READ,
  'GET /dashboard/events/:id/setup': EV_MANAGE,
  'POST /dashboard/events/:id': EV_MANAGE,
  'POST /dashboard/events/:id/publish': EV_MANAGE,
  'POST /dashboard/events/:id/delete': EV_MANAGE,
  'POST /dashboard/events/:id/tracks': EV_MANAGE,
  'POST /dashboard/events/:id/tracks/:index': EV_MANAGE,
  'POST /dashboard/events/:id/tracks/:index/remove': EV_MANAGE,
  'POST /dashboard/events/:id/tiers': EV_MANAGE,
  'POST /dashboard/events/:id/tiers/price': EV_MANAGE,
  'POST /dashboard/events/:id/tiers/remove': EV_MANAGE,
  'POST /dashboard/events/:id/seating': EV_MANAGE,
  'POST /dashboard/events/:id/questions': EV_MANAGE,
  'POST /dashboard/events/:id/questions/remove': EV_MANAGE,
  'POST /dashboard/events/:id/promo-codes': EV_MANAGE,
  'GET /dashboard/events/:id/waitlist': EV_READ,
  'POST /dashboard/events/:id/waitlist/settings': EV_MANAGE,
  'POST /dashboard/events/:id/waitlist/:entryId/remove': EV_MANAGE,
  'GET /dashboard/events/:id/registrations': EV_READ,
  'GET /dashboard/events/:id/registrations/:rid': EV_READ,
  'GET /dashboard/events/:id/registrations/:rid/documents/:number': EV_READ,
  'POST /dashboard/events/:id/registrations/:rid/:action': EV_MANAGE,
  'GET /dashboard/events/:id/broadcast': EV_MANAGE,
  'POST /dashboard/events/:id/broadcast': EV_MANAGE,
  'POST /dashboard/events/:id/broadcast/send': EV_MANAGE,
  'GET /dashboard/events/:id/door': need('door', 'event'),
  'GET /dashboard/door': need('door', 'listing'),
  'POST /dashboard/events/:id/door/open': need('door', 'event'),
  'POST /dashboard/events/:id/door-passes': EV_MANAGE,
  'POST /dashboard/events/:id/door-passes/:passId/revoke': EV_MANAGE,
  'GET /dashboard/registrations/:rid': READ,
  // Seating plans.
  'GET /dashboard/seating-plans': READ,
  'POST /dashboard/seating-plans': need('seating.manage'),
  'GET /dashboard/seating-plans/:id': READ,
  'POST /dashboard/seating-plans/:id/name': need('seating.manage'),
  'POST /dashboard/seating-plans/:id/seats': need('seating.manage'),
  // Memberships, activity, test inbox.
  'GET /dashboard/memberships': READ,
  'POST /dashboard/memberships/plans': need('memberships.manage'),
  'GET /dashboard/activity': READ,
  'GET /dashboard/test-inbox': READ,
  'GET /dashboard/test-inbox/:mid': READ,
  'GET /dashboard/test-inbox/:mid/body': READ,
  'GET /dashboard/test-inbox/:mid/files/:index': READ,
};

/** What a route needs, by method and Fastify url (HEAD is GET's twin); undefined: no rule. */
export function routeNeed(method: string, url: string): RouteNeed | undefined {
  return ROUTE_NEEDS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}

export interface Membership {
  role: Role;
  /** Null: every event of the organisation. */
  eventIds: readonly string[] | null;
}

/**
 * Whether a member may take a route: the role must hold the permission; a member limited to
 * listed events passes an event route only on those, and no account-wide route. `self`
 * needs no membership at all.
 */
export function allows(
  need: RouteNeed,
  member: Membership | undefined,
  eventId: string | undefined,
): boolean {
  if (need.permission === 'self') return true;
  if (member === undefined || !PERMISSION_ROLES[need.permission].includes(member.role)) return false;
  if (member.eventIds === null) return true;
  if (need.scope === 'listing') return true;
  return need.scope === 'event' && eventId !== undefined && member.eventIds.includes(eventId);
}

/**
 * Whether a member may do what `permission` covers, on one event or the whole organisation:
 * what screens ask to hide a link or a button the role cannot use (the same rule the hook applies).
 */
export function may(member: Membership | undefined, permission: Permission, eventId?: string): boolean {
  return allows({ permission, scope: eventId === undefined ? 'account' : 'event' }, member, eventId);
}
