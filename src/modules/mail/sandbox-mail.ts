// The mails test mode keeps instead of sending: kept by the ticket and broadcast jobs,
// paged by the sandbox's API, pruned by the workers.
import type { Db } from '../../shared/db-handle.js';
import * as repo from './sandbox-mail.repo.js';
import { decodeCursor, pageOf } from '../../shared/keyset-cursor.js';

export { recordSandboxMail, type SandboxMail } from './sandbox-mail.repo.js';

/** The newest mails test mode kept for an account, as the API shows them. */
export async function keptEmails(db: Db, accountId: string, limit: number) {
  const rows = await repo.listEmails(db, accountId, limit);
  return rows.map((r) => ({ id: r.id, to: r.recipients, subject: r.subject, text: r.text, attachments: r.attachments, createdAt: r.created_at.toISOString() }));
}

/** Kept mails are pruned by the workers after this long. */
export const SANDBOX_MAIL_RETENTION_MS = 30 * 86_400_000;

export function pruneKeptEmails(db: Db, now: Date): Promise<number> {
  return repo.pruneEmails(db, new Date(now.getTime() - SANDBOX_MAIL_RETENTION_MS));
}

/** One page of the mails test mode kept, newest first; `count` is the total kept. */
export async function pageKeptEmails(db: Db, accountId: string, page: { limit: number; startingAfter?: string | undefined }) {
  const rows = await repo.pageEmails(db, accountId, page.limit, decodeCursor(page.startingAfter));
  const out = pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
  return {
    items: out.items.map((r) => ({ id: r.id, to: r.recipients, subject: r.subject, text: r.text, attachments: r.attachments, createdAt: r.created_at.toISOString() })),
    hasMore: out.hasMore,
    nextCursor: out.nextCursor,
    count: await repo.countEmails(db, accountId),
  };
}
