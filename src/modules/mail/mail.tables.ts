// The mail module's tables: their row types, and in MailTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Timestamp, Json } from '../../db/columns.js';

/** The tables the mail module owns. */
export interface MailTables {
  sandbox_emails: SandboxEmailsTable;
}

export interface SandboxEmailsTable {
  id: string;
  account_id: string;
  recipients: Json<string[]>;
  subject: string;
  text: string;
  attachments: Json<string[]>;
  created_at: Timestamp;
}
