// GET and PUT /api/v1/account/mail-settings: how the account's mails to buyers present it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { Nullable } from '../../http/schemas.js';
import { getMailSettings, putMailSettings } from './mail-settings.js';

const MailSettings = Type.Object({
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

const DESCRIPTION =
  'Every mail the account’s buyers get — tickets, refunds, cancellations, transfers, waitlist offers, broadcasts — comes from the service’s sending address (`MAIL_FROM`) under the organisation’s name, and a reply goes to `replyTo`. One setting for test and live mode.';

export const mailSettingsRoutes =
  (deps: { db: Kysely<Database> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/account/mail-settings',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['identity'],
          summary: 'How the account’s mails to buyers present it',
          description: DESCRIPTION,
          response: { 200: Type.Object({ success: Type.Literal(true), data: MailSettings }) },
        },
      },
      async (req) => ({
        success: true as const,
        data: await getMailSettings(deps.db, keyPrincipal(req).userId),
      }),
    );

    app.put(
      '/api/v1/account/mail-settings',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['identity'],
          summary: 'Set the organisation’s name and reply-to address of the account’s mails',
          description: `${DESCRIPTION} Replaces both; an empty or null value clears one. 400 \`invalid_field\` for a name over 100 characters or of more than one line, \`invalid_email\` for a reply-to that is no email address.`,
          body: Type.Object(
            {
              organisationName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
              replyTo: Type.Optional(Nullable(Type.String({ maxLength: 254 }))),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ success: Type.Literal(true), data: MailSettings }),
            400: Type.Ref('Error'),
          },
        },
      },
      async (req) => ({
        success: true as const,
        data: await putMailSettings(deps.db, keyPrincipal(req).userId, req.body),
      }),
    );
  };
