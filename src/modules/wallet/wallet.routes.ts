// GET /t/{token}/pass.pkpass and GET /t/{token}/google-wallet: the ticket of the attendee
// page's token in Apple Wallet and Google Wallet. Public: the token (registration id and a
// 132-bit MAC over it and the current ticket id) is the credential, so an unknown, bent or
// retired (transferred) token is 404, like a wallet that is not configured. One operation per
// file under routes/.
import { routes } from '../../http/operation.js';
import { getApplePass } from './routes/get-apple-pass.js';
import { openGoogleWalletLink } from './routes/open-google-wallet-link.js';
import type { WalletDeps } from './routes/wallet-ticket.js';

export { ticketForToken } from './routes/wallet-ticket.js';

export const walletRoutes = routes<WalletDeps>([getApplePass, openGoogleWalletLink]);
