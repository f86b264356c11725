import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { Nullable } from '../../../http/schemas.js';
import { putMailSettings } from '../mail-settings.js';
import { DESCRIPTION, MailSettings, type MailSettingsDeps, mailSettingsExample } from './mail-setting.js';

const examples: OperationExamples = {
  requests: { default: { value: mailSettingsExample } },
  responses: { '200': { success: true, data: mailSettingsExample } },
};

export const putAccountMailSettings: Operation<MailSettingsDeps> = (app, deps) =>
  app.put(
    '/api/v1/account/mail-settings',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'putAccountMailSettings',
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
          200: answer(
            Type.Object({ success: Type.Literal(true), data: MailSettings }),
            'The mail sender settings as they now stand.',
          ),
          400: Type.Ref('Error'),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await putMailSettings(deps.db, keyPrincipal(req).userId, req.body),
    }),
  );
