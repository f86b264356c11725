import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import type { OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { getMailSettings } from '../mail-settings.js';
import { DESCRIPTION, MailSettings, type MailSettingsDeps, mailSettingsExample } from './mail-setting.js';

const examples: OperationExamples = { responses: { '200': { success: true, data: mailSettingsExample } } };

export const getAccountMailSettings: Operation<MailSettingsDeps> = (app, deps) =>
  app.get(
    '/api/v1/account/mail-settings',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getAccountMailSettings',
        tags: ['identity'],
        summary: 'How the account’s mails to buyers present it',
        description: DESCRIPTION,
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: MailSettings }),
            'The account’s mail sender settings: the organisation’s name its buyers’ mails come under, and where replies go.',
          ),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await getMailSettings(deps.db, keyPrincipal(req).userId),
    }),
  );
