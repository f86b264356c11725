// The test-mode mail sink: mails that test mode keeps instead of sending, and their pages.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SandboxEmailsTable } from '../../db/database.js';
import type { KeysetPosition } from '../../lib/keyset-cursor.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SandboxMail {
  id: string;
  accountId: string;
  recipients: readonly string[];
  subject: string;
  text: string;
  /** File names. */
  attachments: readonly string[];
  /** The HTML body as it would be sent, where the mail has one. */
  html?: string | null | undefined;
  /** The attachments' bytes, in the order of `attachments`, for the Test inbox. */
  files?:
    | readonly { filename: string; contentType: string; cid?: string | undefined; content: Buffer }[]
    | undefined;
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
        html: m.html ?? null,
        created_at: m.createdAt,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const files = list.flatMap((m) =>
    (m.files ?? []).map((f, idx) => ({
      email_id: m.id,
      idx,
      filename: f.filename,
      content_type: f.contentType,
      cid: f.cid ?? null,
      content: f.content,
    })),
  );
  if (files.length > 0) {
    await db
      .insertInto('sandbox_email_files')
      .values(files)
      .onConflict((oc) => oc.columns(['email_id', 'idx']).doNothing())
      .execute();
  }
}

/** One kept mail of an account, with its HTML body; undefined for another account's or none. */
export function findEmail(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('sandbox_emails')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** A kept mail's attachments without their bytes, in order. */
export function listFiles(db: Db, emailId: string) {
  return db
    .selectFrom('sandbox_email_files')
    .select(['idx', 'filename', 'content_type', 'cid'])
    .where('email_id', '=', emailId)
    .orderBy('idx')
    .execute();
}

/** One attachment of an account's kept mail, with its bytes. */
export function findFile(db: Db, accountId: string, emailId: string, idx: number) {
  return db
    .selectFrom('sandbox_email_files as f')
    .innerJoin('sandbox_emails as e', 'e.id', 'f.email_id')
    .select(['f.filename', 'f.content_type', 'f.content'])
    .where('f.email_id', '=', emailId)
    .where('f.idx', '=', idx)
    .where('e.account_id', '=', accountId)
    .executeTakeFirst();
}

/** Newest first. */
export function listSandboxMails(
  db: Db,
  accountId: string,
  limit: number,
): Promise<Selectable<SandboxEmailsTable>[]> {
  return db
    .selectFrom('sandbox_emails')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The newest mails test mode kept for an account. */
export function listEmails(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('sandbox_emails')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One page of the mails test mode kept for an account, newest first, before a position (limit + 1 rows). */
export function pageEmails(db: Db, accountId: string, limit: number, after: KeysetPosition | undefined) {
  let q = db.selectFrom('sandbox_emails').selectAll().where('account_id', '=', accountId);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', after.at),
        eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)]),
      ]),
    );
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

export async function countEmails(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('sandbox_emails')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Deletes kept mails older than `before`, a batch at a time; returns how many went. */
export async function pruneEmails(db: Db, before: Date, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await db
      .deleteFrom('sandbox_emails')
      .where('id', 'in', (qb) =>
        qb.selectFrom('sandbox_emails').select('id').where('created_at', '<', before).limit(batch),
      )
      .executeTakeFirst();
    const n = Number(r.numDeletedRows);
    total += n;
    if (n < batch) return total;
  }
}
