// What the member operations share (docs/decisions/25-organiser-teams-and-roles.md): their deps,
// the member and invitation as answered, and the actor behind a session.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { sessionPrincipal } from '../../../../http/auth.js';
import type { Role } from '../../../../db/columns.js';
import type { AccountsDeps } from '../account.js';
import type { Actor, MembersDeps } from '../../members.service.js';

export type MembersRouteDeps = AccountsDeps & Pick<MembersDeps, 'eventAccounts' | 'endDoorPasses'>;

export const SESSION = { kind: 'session' } as const;

export const ROLE_TEXT =
  'owner, admin, finance, event_manager, door or viewer (docs/decisions/25-organiser-teams-and-roles.md).';
export const RoleSchema = Type.Union(
  [
    Type.Literal('owner'),
    Type.Literal('admin'),
    Type.Literal('finance'),
    Type.Literal('event_manager'),
    Type.Literal('door'),
    Type.Literal('viewer'),
  ],
  { description: ROLE_TEXT },
);
export const EventsSchema = Type.Union(
  [Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }), Type.Null()],
  {
    description: 'The events an event_manager (optional; null: all) or door member (required) works on.',
  },
);

export const Member = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  events: EventsSchema,
  joinedAt: Type.String({ format: 'date-time' }),
  twoFactor: Type.Boolean({ description: 'Whether the member signs in with two-factor (TOTP).' }),
});

export const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  events: EventsSchema,
  invitedBy: Type.String({ description: 'The user id of the person who invited.' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export function presentMember(m: {
  user_id: string;
  email: string;
  name: string;
  role: string;
  event_ids: string[] | null;
  created_at: Date;
  two_factor: boolean;
}) {
  return {
    userId: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role as Role,
    events: m.event_ids,
    joinedAt: m.created_at.toISOString(),
    twoFactor: m.two_factor,
  };
}

export function presentInvitation(i: {
  id: string;
  email: string;
  role: string;
  event_ids: string[] | null;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
}) {
  return {
    id: i.id,
    email: i.email,
    role: i.role as Role,
    events: i.event_ids,
    invitedBy: i.invited_by,
    createdAt: i.created_at.toISOString(),
    expiresAt: i.expires_at.toISOString(),
  };
}

export function actorOf(req: FastifyRequest): Actor {
  const s = sessionPrincipal(req);
  return { userId: s.userId, personId: s.personId, email: s.email, isStaff: s.isStaff, role: s.role };
}

export const membersDeps = (deps: MembersRouteDeps): MembersDeps => ({
  db: deps.db,
  clock: deps.clock,
  ids: deps.ids,
  jobs: deps.jobs,
  eventAccounts: deps.eventAccounts,
  endDoorPasses: deps.endDoorPasses,
});
