// Two-factor sign-in for the signed-in person and the organisation's requirement
// (docs/decisions/25-organiser-teams-and-roles.md), one operation per file under routes/two-factor/.
import { routes } from '../../http/operation.js';
import type { AccountsDeps } from './routes/account.js';
import { confirmTwoFactorEnrolment } from './routes/two-factor/confirm-enrolment.js';
import { disableTwoFactor } from './routes/two-factor/disable.js';
import { getTwoFactor } from './routes/two-factor/get-two-factor.js';
import { regenerateRecoveryCodes } from './routes/two-factor/regenerate-recovery-codes.js';
import { setTwoFactorRequirement } from './routes/two-factor/set-requirement.js';
import { startTwoFactorEnrolment } from './routes/two-factor/start-enrolment.js';

export const twoFactorRoutes = routes<AccountsDeps>([
  getTwoFactor,
  startTwoFactorEnrolment,
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  setTwoFactorRequirement,
]);
