// Queries on organisation_members and organisation_invitations, taking db or trx. An
// organisation's id is its founding account's user id (docs/decisions/25-organiser-teams-and-roles.md).
import { sql } from 'kysely';
import type { Role } from '../../db/columns.js';
import type { Db } from '../../lib/db-handle.js';

export interface MemberRow {
  organisation_id: string;
  user_id: string;
  role: Role;
  event_ids: string[] | null;
  created_at: Date;
}

export async function insertMember(db: Db, row: MemberRow): Promise<void> {
  await db.insertInto('organisation_members').values(row).execute();
}

/**
 * The person's membership of `organisationId`; without one, their first organisation
 * (their own account's, else the one they joined first).
 */
export function findMembership(db: Db, userId: string, organisationId: string | null) {
  let q = db
    .selectFrom('organisation_members as m')
    .leftJoin('two_factor as t', (j) =>
      j.onRef('t.user_id', '=', 'm.user_id').on('t.enabled_at', 'is not', null),
    )
    .selectAll('m')
    // An organisation of theirs requires two-factor and this person has none yet: they enrol first.
    .select(
      sql<boolean>`t.user_id is null and exists (select 1 from organisation_members r
        join users o on o.id = r.organisation_id where r.user_id = m.user_id and o.two_factor_required)`.as(
        'two_factor_due',
      ),
    )
    .where('m.user_id', '=', userId);
  q =
    organisationId === null
      ? q
          .orderBy(sql`m.organisation_id = m.user_id`, 'desc')
          .orderBy('m.created_at')
          .orderBy('m.organisation_id')
      : q.where('m.organisation_id', '=', organisationId);
  return q.limit(1).executeTakeFirst();
}

/** The organisation's members with their names and addresses, owners first. */
export function listMembers(db: Db, organisationId: string) {
  return db
    .selectFrom('organisation_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('two_factor as t', 't.user_id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.event_ids', 'm.created_at', 'u.email', 'u.name'])
    .select(sql<boolean>`t.enabled_at is not null`.as('two_factor'))
    .where('m.organisation_id', '=', organisationId)
    .orderBy(sql`m.role = 'owner'`, 'desc')
    .orderBy('m.created_at')
    .orderBy('m.user_id')
    .execute();
}

/** The organisations a person belongs to, with the names they go by. */
export function listOrganisationsOf(db: Db, userId: string) {
  return db
    .selectFrom('organisation_members as m')
    .innerJoin('users as o', 'o.id', 'm.organisation_id')
    .select(['m.organisation_id', 'm.role', 'm.event_ids', 'o.org_name', 'o.name', 'o.email'])
    .where('m.user_id', '=', userId)
    .orderBy(sql`m.organisation_id = m.user_id`, 'desc')
    .orderBy('m.created_at')
    .orderBy('m.organisation_id')
    .execute();
}

/** Locks the organisation's owner rows (in a transaction) and counts them. */
export async function lockOwners(db: Db, organisationId: string): Promise<number> {
  const rows = await db
    .selectFrom('organisation_members')
    .select('user_id')
    .where('organisation_id', '=', organisationId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute();
  return rows.length;
}

export async function updateMember(
  db: Db,
  organisationId: string,
  userId: string,
  change: { role: Role; event_ids: string[] | null },
) {
  return db
    .updateTable('organisation_members')
    .set(change)
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteMember(db: Db, organisationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('organisation_members')
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function insertInvitation(
  db: Db,
  row: {
    id: string;
    organisation_id: string;
    email: string;
    role: Role;
    event_ids: string[] | null;
    invited_by: string;
    created_at: Date;
    expires_at: Date;
  },
): Promise<void> {
  await db.insertInto('organisation_invitations').values(row).execute();
}

/** Ends the address's pending invitations to the organisation (a new one replaces them). */
export async function revokePendingInvitations(db: Db, organisationId: string, email: string, at: Date) {
  await db
    .updateTable('organisation_invitations')
    .set({ revoked_at: at })
    .where('organisation_id', '=', organisationId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findInvitation(db: Db, id: string) {
  return db.selectFrom('organisation_invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setInvitationToken(db: Db, id: string, tokenHash: string): Promise<void> {
  await db
    .updateTable('organisation_invitations')
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .execute();
}

/** The open invitation with this token (not accepted, revoked or expired), locked for the accept. */
export function findOpenInvitationByToken(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('organisation_invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .forUpdate()
    .executeTakeFirst();
}

export async function markInvitationAccepted(db: Db, id: string, userId: string, at: Date): Promise<void> {
  await db
    .updateTable('organisation_invitations')
    .set({ accepted_at: at, accepted_by: userId })
    .where('id', '=', id)
    .execute();
}

export async function revokeInvitation(db: Db, organisationId: string, id: string, at: Date) {
  return db
    .updateTable('organisation_invitations')
    .set({ revoked_at: at })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

/** Invitations not yet accepted, revoked or expired, newest first. */
export function listOpenInvitations(db: Db, organisationId: string, now: Date) {
  return db
    .selectFrom('organisation_invitations')
    .select(['id', 'email', 'role', 'event_ids', 'invited_by', 'created_at', 'expires_at'])
    .where('organisation_id', '=', organisationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}
