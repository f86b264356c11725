// The test-mode mail sink: mails that test mode keeps instead of sending.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SandboxEmailsTable } from '../../db/database.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SandboxMail {
  id: string;
  accountId: string;
  recipients: readonly string[];
  subject: string;
  text: string;
  /** File names. */
  attachments: readonly string[];
  createdAt: Date;
}

/** Keeps the mails; a mail whose id is already kept is not kept twice (retried jobs). */
export async function recordSandboxMail(db: Db, mails: SandboxMail | readonly SandboxMail[]): Promise<void> {
  const list = Array.isArray(mails) ? (mails as readonly SandboxMail[]) : [mails as SandboxMail];
  if (list.length === 0) return;
  await db
    .insertInto('sandbox_emails')
    .values(
      list.map((m) => ({
        id: m.id,
        account_id: m.accountId,
        recipients: JSON.stringify(m.recipients),
        subject: m.subject,
        text: m.text,
        attachments: JSON.stringify(m.attachments),
        created_at: m.createdAt,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Newest first. */
export function listSandboxMails(db: Db, accountId: string, limit: number): Promise<Selectable<SandboxEmailsTable>[]> {
  return db.selectFrom('sandbox_emails').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
