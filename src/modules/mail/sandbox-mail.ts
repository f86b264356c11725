// The mails test mode keeps instead of sending: kept by the ticket and broadcast jobs,
// paged by the sandbox's API, pruned by the workers.
import type { Db } from '../../lib/db-handle.js';
import type { OutgoingMail } from './mailer.js';
import * as repo from './sandbox-mail.repo.js';
import { decodeCursor, pageOf } from '../../lib/keyset-cursor.js';

export { recordSandboxMail, type SandboxMail } from './sandbox-mail.repo.js';

/** The copy test mode keeps of a mail it does not send: its text, HTML body and attachments, as they would be sent. */
export function keptCopy(
  id: string,
  accountId: string,
  mail: OutgoingMail,
  createdAt: Date,
): repo.SandboxMail {
  const files = mail.attachments ?? [];
  return {
    id,
    accountId,
    recipients: [mail.to],
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    attachments: files.map((a) => a.filename),
    files: files.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      cid: a.cid,
      content: a.content,
    })),
    createdAt,
  };
}

/** One kept mail of the account for the Test inbox: its text, HTML body and attachments (without bytes); undefined for none of its own. */
export async function keptEmail(db: Db, accountId: string, id: string) {
  const row = await repo.findEmail(db, accountId, id);
  if (!row) return undefined;
  const files = await repo.listFiles(db, id);
  return {
    id: row.id,
    to: row.recipients,
    subject: row.subject,
    text: row.text,
    html: row.html,
    createdAt: row.created_at.toISOString(),
    // Mails kept before attachments were kept name their files only.
    files: files.map((f) => ({
      index: f.idx,
      filename: f.filename,
      contentType: f.content_type,
      cid: f.cid,
    })),
    namedOnly: files.length === 0 ? row.attachments : [],
  };
}

/** An attachment of one of the account's kept mails, with its bytes. */
export async function keptFile(db: Db, accountId: string, id: string, index: number) {
  const f = await repo.findFile(db, accountId, id, index);
  return f && { filename: f.filename, contentType: f.content_type, content: f.content };
}

/** The files an HTML body shows inline (`cid:`), with their bytes. */
export async function inlineFiles(
  db: Db,
  accountId: string,
  id: string,
): Promise<Map<string, { contentType: string; content: Buffer }>> {
  const out = new Map<string, { contentType: string; content: Buffer }>();
  const mail = await keptEmail(db, accountId, id);
  if (!mail) return out;
  for (const f of mail.files) {
    if (f.cid === null) continue;
    const file = await repo.findFile(db, accountId, id, f.index);
    if (file) out.set(f.cid, { contentType: file.content_type, content: file.content });
  }
  return out;
}

/** The newest mails test mode kept for an account, as the API shows them. */
export async function keptEmails(db: Db, accountId: string, limit: number) {
  const rows = await repo.listEmails(db, accountId, limit);
  return rows.map((r) => ({
    id: r.id,
    to: r.recipients,
    subject: r.subject,
    text: r.text,
    attachments: r.attachments,
    createdAt: r.created_at.toISOString(),
  }));
}

/** Kept mails are pruned by the workers after this long. */
export const SANDBOX_MAIL_RETENTION_MS = 30 * 86_400_000;

export function pruneKeptEmails(db: Db, now: Date): Promise<number> {
  return repo.pruneEmails(db, new Date(now.getTime() - SANDBOX_MAIL_RETENTION_MS));
}

/** One page of the mails test mode kept, newest first; `count` is the total kept. */
export async function pageKeptEmails(
  db: Db,
  accountId: string,
  page: { limit: number; startingAfter?: string | undefined },
) {
  const rows = await repo.pageEmails(db, accountId, page.limit, decodeCursor(page.startingAfter));
  const out = pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
  return {
    items: out.items.map((r) => ({
      id: r.id,
      to: r.recipients,
      subject: r.subject,
      text: r.text,
      attachments: r.attachments,
      createdAt: r.created_at.toISOString(),
    })),
    hasMore: out.hasMore,
    nextCursor: out.nextCursor,
    count: await repo.countEmails(db, accountId),
  };
}
