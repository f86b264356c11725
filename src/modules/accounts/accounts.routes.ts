// Sign-up, sign-in, verification, passwords and the key's identity, one operation per file
// under routes/.
import { routes } from '../../http/operation.js';
import type { AccountsDeps } from './routes/account.js';
import { changePassword } from './routes/change-password.js';
import { getMe } from './routes/get-me.js';
import { logIn } from './routes/log-in.js';
import { logInTwoFactor } from './routes/log-in-two-factor.js';
import { logOutEverywhere } from './routes/log-out-everywhere.js';
import { openVerificationLink } from './routes/open-verification-link.js';
import { requestPasswordReset } from './routes/request-password-reset.js';
import { resendVerificationEmail } from './routes/resend-verification-email.js';
import { resetPassword } from './routes/reset-password.js';
import { signUp } from './routes/sign-up.js';
import { verifyEmail } from './routes/verify-email.js';

export const accountsRoutes = routes<AccountsDeps>([
  signUp,
  logIn,
  logInTwoFactor,
  openVerificationLink,
  verifyEmail,
  requestPasswordReset,
  resetPassword,
  changePassword,
  logOutEverywhere,
  resendVerificationEmail,
  getMe,
]);
