// What the account's mail settings operations share: their deps, the settings as they answer
// them and the sentence both describe them with.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../../db/database.js';
import { Nullable } from '../../../http/schemas.js';

/** What the mail settings operations need. */
export interface MailSettingsDeps {
  db: Kysely<Database>;
}

export const MailSettings = Type.Object({
  organisationName: Nullable(
    Type.String({
      description:
        'The organisation’s name: the sender’s display name (before the service’s sending address) and the sign-off of every mail to buyers. Null: the event’s title stands in; a person’s name never does.',
    }),
  ),
  replyTo: Nullable(
    Type.String({
      description:
        'Where buyers’ replies go (the mails’ Reply-To). Null: no Reply-To; replies go to the sending address.',
    }),
  ),
});

export const DESCRIPTION =
  'Every mail the account’s buyers get — tickets, refunds, cancellations, transfers, waitlist offers, broadcasts — comes from the service’s sending address (`MAIL_FROM`) under the organisation’s name, and a reply goes to `replyTo`. One setting for test and live mode.';

/** The settings as the examples show them. */
export const mailSettingsExample = {
  organisationName: 'Pune Tech Collective',
  replyTo: 'hello@punetech.example.in',
} as const;
