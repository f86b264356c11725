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
  invalid_two_factor_code: {
    status: 401,
    message: 'the authentication code or recovery code is wrong, used already or expired',
  },
  invalid_two_factor_challenge: {
    status: 401,
    message: 'the two-factor sign-in has expired or is not valid; sign in with your password again',
  },
  two_factor_proof_required: {
    status: 400,
    message: 'give a current authentication code (code) or your password (password)',
  },
  two_factor_enrolment_required: {
    status: 403,
    message:
      'this organisation requires two-factor sign-in: set it up first (POST /dashboard/api/two-factor/enrol)',
  },
  two_factor_already_enabled: { status: 409, message: 'two-factor sign-in is already set up' },
  two_factor_not_enabled: { status: 409, message: 'two-factor sign-in is not set up' },
  two_factor_enrolment_not_started: {
    status: 409,
    message: 'start enrolment first (POST /dashboard/api/two-factor/enrol)',
  },
} as const satisfies Record<string, { readonly status: number; readonly message: string }>;
