// How an organiser's mails to buyers present them (docs/decisions/28-a-persons-day.md): the organisation's
// name as the sender's display name and sign-off (never a person's name), and the address a
// reply goes to. An account setting, the same in test and live mode.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import type { Db } from '../../lib/db-handle.js';
import { checkSyntax } from '../mail/email-check.js';
import * as repo from './accounts.repo.js';

export interface MailSettings {
  /** The organisation's name its mails carry; null until set. */
  organisationName: string | null;
  /** Where buyers' replies go; null: replies go to the service's sending address. */
  replyTo: string | null;
}

/** What an organiser's mail carries of them. */
export interface MailSender {
  /** The From display name and the sign-off: the organisation's name, else what the mail is about (the event). */
  name: string | undefined;
  replyTo: string | undefined;
}

const NAME_MAX = 100;

export async function getMailSettings(db: Kysely<Database>, userId: string): Promise<MailSettings> {
  const [user] = await repo.findUsersById(db, [userId]);
  return { organisationName: user?.org_name ?? null, replyTo: user?.reply_to ?? null };
}

/** Sets both; an empty text clears one. 400 `invalid_field` for a name with line breaks or too long, `invalid_email` for a reply-to that is no address. */
export async function putMailSettings(
  db: Kysely<Database>,
  userId: string,
  input: { organisationName?: string | null | undefined; replyTo?: string | null | undefined },
): Promise<MailSettings> {
  const name = (input.organisationName ?? '').trim();
  if (name.length > NAME_MAX)
    throw badRequest('invalid_field', `organisationName must be at most ${NAME_MAX} characters`, {
      field: 'organisationName',
    });
  // A display name is one line of a mail header: no control characters.
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw badRequest('invalid_field', 'organisationName must be one line of text', {
      field: 'organisationName',
    });
  const replyText = (input.replyTo ?? '').trim();
  let replyTo: string | null = null;
  if (replyText !== '') {
    const v = checkSyntax(replyText);
    if (!v.ok)
      throw badRequest(
        'invalid_email',
        v.reason === 'syntax' ? 'replyTo must be an email address' : v.message,
        { field: 'replyTo' },
      );
    replyTo = v.email;
  }
  await repo.setMailSettings(db, userId, { orgName: name === '' ? null : name, replyTo });
  return { organisationName: name === '' ? null : name, replyTo };
}

/** The senders of these accounts' mails, by account id. */
export async function mailSendersOf(
  db: Db,
  accountIds: readonly string[],
): Promise<Map<string, { orgName: string | null; replyTo: string | null }>> {
  return new Map(
    (await repo.findUsersById(db, [...new Set(accountIds)])).map((u) => [
      u.id,
      { orgName: u.org_name, replyTo: u.reply_to },
    ]),
  );
}

/** What a mail about `about` (an event's title) carries of its organiser. */
export function senderFor(
  settings: { orgName: string | null; replyTo: string | null } | undefined,
  about: string,
): MailSender {
  return { name: settings?.orgName ?? about, replyTo: settings?.replyTo ?? undefined };
}
