// The accounts module's tables: their row types, and in AccountsTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Role, Timestamp } from '../../db/columns.js';

/** The tables the accounts module owns. */
export interface AccountsTables {
  sandbox_clocks: SandboxClocksTable;
  users: UsersTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  publishing_requests: PublishingRequestsTable;
  organisation_members: OrganisationMembersTable;
  organisation_invitations: OrganisationInvitationsTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
}

/** A request for publishing access (docs/decisions/17-the-organisers-office.md): pending until staff grant or decline it. */
export interface PublishingRequestsTable {
  id: string;
  user_id: string;
  message: string;
  status: 'pending' | 'granted' | 'declined';
  reason: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  phone: string | null;
  is_organizer: Generated<boolean>;
  can_publish: Generated<boolean>;
  created_at: Timestamp;
  /** Null until the address is proved by the verification mail. */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** idTokens carry the epoch they were issued in; a reset, a change or "sign out everywhere" raises it. */
  session_epoch: Generated<number>;
  /** Set after too many failed sign-ins from everywhere; only the password reset link lifts it. */
  login_locked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The organisation's name the account's mails carry (the sender's display name); null: the person's name. */
  org_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where a reply to the account's mails goes; null: the account's own address. */
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** On an organisation's row: its members must sign in with two-factor. */
  two_factor_required: Generated<boolean>;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface EmailVerificationsTable {
  token_hash: string;
  user_id: string;
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SandboxClocksTable {
  account_id: string;
  offset_ms: number;
}

/** A person's place in an organisation; the organisation's id is its founding account's user id. */
export interface OrganisationMembersTable {
  organisation_id: string;
  user_id: string;
  role: Role;
  /** Null: every event; otherwise the events an event manager or door member works on. */
  event_ids: string[] | null;
  created_at: Timestamp;
}

/** An invitation mailed to one address; the link's token is kept only as its hash. */
export interface OrganisationInvitationsTable {
  id: string;
  organisation_id: string;
  email: string;
  role: Role;
  event_ids: string[] | null;
  /** Set when the mail is sent (the token exists only in the mail); a resent mail replaces it. */
  token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  invited_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  accepted_by: ColumnType<string | null, string | null | undefined, string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A person's TOTP: the secret sealed under SECRETS_KEY; enabled once a first code confirmed it. */
export interface TwoFactorTable {
  user_id: string;
  secret_sealed: string;
  enabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The time step of the last code taken: a code of this step or before is refused. */
  last_step: ColumnType<string | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

/** Single-use recovery codes, kept as sha256 hashes. */
export interface TwoFactorRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
