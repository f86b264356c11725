// Organisations and their members (docs/decisions/25-organiser-teams-and-roles.md): who belongs
// to which organisation, in which role, on which events; invitations by mail, role changes and
// removal, with the rules that keep an organisation owned: the last owner can neither leave nor
// be demoted, and only an owner makes, changes or removes an owner.
import type { Kysely } from 'kysely';
import type { Database, Role } from '../../db/database.js';
import { defineJob, enqueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { ROLES } from '../../http/permissions.js';
import * as audit from '../audit/audit.service.js';
import * as repo from './members.repo.js';
import { normaliseEmail, sha256 } from './accounts.service.js';
import * as accounts from './accounts.repo.js';
import type { SessionSigner } from './sessions.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const inviteMemberJob = defineJob<{ invitationId: string }>('account.invite_member');

export interface MembersDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  jobs?: { kick(): void };
  /** Which organisation each of these events belongs to (the events module answers). */
  eventAccounts(ids: readonly string[]): Promise<Map<string, string>>;
  /** Ends the door passes the member opened for themselves (the door module answers); their ids. */
  endDoorPasses(db: Db, organisationId: string, personId: string, at: Date): Promise<string[]>;
}

/** Who is acting: the organisation they act in, the person, and their role there. */
export interface Actor {
  userId: string;
  personId: string;
  email: string;
  isStaff: boolean;
  role?: Role | undefined;
}

/** The person's membership of the organisation; null asks for their first (their own account's first). */
export function findMembership(db: Db, userId: string, organisationId: string | null) {
  return repo.findMembership(db, userId, organisationId);
}

export const listOrganisationsOf = repo.listOrganisationsOf;

/** A role and its events, checked: events only for event_manager (optional) and door (required), all of this organisation. */
async function roleAndEvents(
  deps: MembersDeps,
  organisationId: string,
  input: { role: unknown; events?: unknown },
): Promise<{ role: Role; event_ids: string[] | null }> {
  const role = input.role as Role;
  if (!ROLES.includes(role)) throw badRequest('invalid_role');
  if (input.events === undefined || input.events === null) {
    if (role === 'door')
      throw badRequest('invalid_member_events', 'a door member needs the events they admit for');
    return { role, event_ids: null };
  }
  const ids = input.events as unknown[];
  const scoped = role === 'event_manager' || role === 'door';
  if (!scoped || !Array.isArray(ids) || ids.length === 0 || ids.length > 100)
    throw badRequest('invalid_member_events');
  const unique = [...new Set(ids.map(String))];
  const owners = await deps.eventAccounts(unique);
  if (unique.some((id) => owners.get(id) !== organisationId))
    throw badRequest('invalid_member_events', 'every listed event must be an event of this organisation');
  return { role, event_ids: unique.sort() };
}

/** Only an owner makes, changes or removes an owner. */
function guardOwners(actor: Actor, touchesOwner: boolean) {
  if (touchesOwner && actor.role !== 'owner') throw forbidden('owner_only');
}

const memberAudit = (actor: Actor, action: string, userId: string) => ({
  accountId: actor.userId,
  mode: 'live' as const,
  actor: audit.actorOfSession(actor),
  action,
  target: { type: 'member', id: userId },
});

/** Invites an address: the mail (a job, committed with the invitation) carries the only copy of the link. */
export async function invite(
  deps: MembersDeps,
  actor: Actor,
  input: { email: string; role: unknown; events?: unknown },
) {
  const email = normaliseEmail(input.email);
  const { role, event_ids } = await roleAndEvents(deps, actor.userId, input);
  guardOwners(actor, role === 'owner');
  const existing = await accounts.findUserByEmail(deps.db, email);
  if (existing && (await repo.findMembership(deps.db, existing.id, actor.userId)))
    throw conflict('already_member');
  const now = deps.clock.now();
  const row = {
    id: deps.ids.make('inv', 12),
    organisation_id: actor.userId,
    email,
    role,
    event_ids,
    invited_by: actor.personId,
    created_at: now,
    expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
  };
  await deps.db.transaction().execute(async (trx) => {
    await repo.revokePendingInvitations(trx, actor.userId, email, now);
    await repo.insertInvitation(trx, row);
    await enqueue(trx, deps, inviteMemberJob, { invitationId: row.id });
    await audit.recordChange(trx, deps, {
      ...memberAudit(actor, 'member.invite', row.id),
      target: { type: 'invitation', id: row.id },
      after: { email, role, events: event_ids },
    });
  });
  deps.jobs?.kick();
  return row;
}

/** Accepts an invitation signed in as the invited address; the mailbox is then proved too. */
export async function accept(
  deps: Pick<MembersDeps, 'db' | 'clock'>,
  person: { personId: string; email: string },
  token: string,
) {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const inv = await repo.findOpenInvitationByToken(trx, sha256(token), now);
    if (!inv) throw notFound('no such invitation, or it has expired or been used', 'invitation_not_found');
    if (inv.email !== normaliseEmail(person.email))
      throw forbidden(
        'invitation_other_address',
        `this invitation was sent to another address, not ${person.email}`,
      );
    if (await repo.findMembership(trx, person.personId, inv.organisation_id))
      throw conflict('already_member');
    await repo.insertMember(trx, {
      organisation_id: inv.organisation_id,
      user_id: person.personId,
      role: inv.role,
      event_ids: inv.event_ids,
      created_at: now,
    });
    await repo.markInvitationAccepted(trx, inv.id, person.personId, now);
    await accounts.markEmailVerified(trx, person.personId, inv.email, now);
    return { organisationId: inv.organisation_id, role: inv.role, events: inv.event_ids };
  });
}

/** Changes a member's role (and events). */
export async function changeMember(
  deps: MembersDeps,
  actor: Actor,
  userId: string,
  input: { role: unknown; events?: unknown },
) {
  const next = await roleAndEvents(deps, actor.userId, input);
  return deps.db.transaction().execute(async (trx) => {
    const owners = await repo.lockOwners(trx, actor.userId);
    const target = await repo.findMembership(trx, userId, actor.userId);
    if (!target) throw notFound('no such member of this organisation', 'team_member_not_found');
    guardOwners(actor, target.role === 'owner' || next.role === 'owner');
    if (target.role === 'owner' && next.role !== 'owner' && owners <= 1) throw conflict('last_owner');
    const row = await repo.updateMember(trx, actor.userId, userId, next);
    // The door screens opened under the old role end: the member opens them again under the new one.
    const ended = await deps.endDoorPasses(trx, actor.userId, userId, deps.clock.now());
    await audit.recordChange(trx, deps, {
      ...memberAudit(actor, 'member.change', userId),
      before: { role: target.role, events: target.event_ids },
      after: { role: next.role, events: next.event_ids, doorPassesEnded: ended },
    });
    return row!;
  });
}

/** Removes a member (or lets one leave). What they made (events, keys) stays the organisation's. */
export async function removeMember(deps: MembersDeps, actor: Actor, userId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const owners = await repo.lockOwners(trx, actor.userId);
    const target = await repo.findMembership(trx, userId, actor.userId);
    if (!target) throw notFound('no such member of this organisation', 'team_member_not_found');
    guardOwners(actor, target.role === 'owner' && userId !== actor.personId);
    if (target.role === 'owner' && owners <= 1) throw conflict('last_owner');
    await repo.deleteMember(trx, actor.userId, userId);
    const ended = await deps.endDoorPasses(trx, actor.userId, userId, deps.clock.now());
    await audit.recordChange(trx, deps, {
      ...memberAudit(actor, 'member.remove', userId),
      before: { role: target.role, events: target.event_ids },
      after: { doorPassesEnded: ended },
    });
  });
}

/** Withdraws an invitation not yet accepted. */
export async function withdrawInvitation(deps: MembersDeps, actor: Actor, id: string): Promise<void> {
  const row = await repo.revokeInvitation(deps.db, actor.userId, id, deps.clock.now());
  if (!row) throw notFound('no such invitation, or it has expired or been used', 'invitation_not_found');
}

/** The members, and the invitations still open. */
export async function listMembers(deps: Pick<MembersDeps, 'db' | 'clock'>, organisationId: string) {
  const [members, invitations] = await Promise.all([
    repo.listMembers(deps.db, organisationId),
    repo.listOpenInvitations(deps.db, organisationId, deps.clock.now()),
  ]);
  return { members, invitations };
}

/**
 * A session token working in `organisationId`, for a member of it (403 `role_forbidden`
 * otherwise); it keeps the person's session epoch, so "sign out everywhere" still ends it.
 */
export async function tokenFor(
  deps: { db: Db; sessions: SessionSigner },
  personId: string,
  organisationId: string,
) {
  const [member, person] = await Promise.all([
    repo.findMembership(deps.db, personId, organisationId),
    accounts.findUserById(deps.db, personId),
  ]);
  if (!member || !person) throw forbidden('role_forbidden', 'you are not a member of this organisation');
  const token = await deps.sessions.issue(personId, person.session_epoch, organisationId);
  return { ...token, organisationId, role: member.role, events: member.event_ids };
}
