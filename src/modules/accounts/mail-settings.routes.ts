// GET and PUT /api/v1/account/mail-settings: how the account's mails to buyers present it, one
// operation per file under routes/.
import { routes } from '../../http/operation.js';
import { getAccountMailSettings } from './routes/get-account-mail-settings.js';
import type { MailSettingsDeps } from './routes/mail-setting.js';
import { putAccountMailSettings } from './routes/put-account-mail-settings.js';

export const mailSettingsRoutes = routes<MailSettingsDeps>([getAccountMailSettings, putAccountMailSettings]);
