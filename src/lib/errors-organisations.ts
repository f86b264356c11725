// The refusals of organisations and their members (docs/decisions/25-organiser-teams-and-roles.md),
// part of the one catalogue in error-catalogue.ts.

export const ORGANISATION_ERRORS = {
  invalid_role: { status: 400, message: 'role must be owner, admin, finance, event_manager, door or viewer' },
  invalid_member_events: {
    status: 400,
    message:
      'events lists event ids of this organisation, for event_manager (optional) or door (required) only',
  },
  role_forbidden: { status: 403, message: 'your role in this organisation does not allow this' },
  owner_only: { status: 403, message: 'only an owner may make, change or remove an owner' },
  invitation_other_address: { status: 403, message: 'this invitation was sent to another address' },
  team_member_not_found: { status: 404, message: 'no such member of this organisation' },
  invitation_not_found: { status: 404, message: 'no such invitation, or it has expired or been used' },
  last_owner: { status: 409, message: 'an organisation keeps at least one owner; make another owner first' },
  already_member: { status: 409, message: 'this person is a member of the organisation already' },
} as const satisfies Record<string, { readonly status: number; readonly message: string }>;
