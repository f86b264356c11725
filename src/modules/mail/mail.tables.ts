// The mail module's tables: their row types, and in MailTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType } from 'kysely';
import type { Timestamp, Json } from '../../db/columns.js';

/** The tables the mail module owns. */
export interface MailTables {
  sandbox_emails: SandboxEmailsTable;
  sandbox_email_files: SandboxEmailFilesTable;
}

export interface SandboxEmailsTable {
  id: string;
  account_id: string;
  recipients: Json<string[]>;
  subject: string;
  text: string;
  attachments: Json<string[]>;
  /** The HTML body as it would be sent; null for a text-only mail (or one kept before bodies were). */
  html: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** A kept mail's attachment, in its order in the mail. */
export interface SandboxEmailFilesTable {
  email_id: string;
  idx: number;
  filename: string;
  content_type: string;
  /** Referenced from the HTML as `cid:<cid>` (the ticket's QR code). */
  cid: string | null;
  content: Buffer;
}
