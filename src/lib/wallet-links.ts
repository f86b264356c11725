// The wallet links of a booking's ticket, for the pages and mails that offer them (the
// confirmation screen, the ticket mail, the attendee's page). Both go through the
// attendee page's token (tickets/attendee-token.ts), never the ticket id, so a link in a
// forwarded mail cannot be turned into a ticket and a transfer retires it:
// `{BASE_URL}/t/{token}/pass.pkpass` (Apple Wallet) and `{BASE_URL}/t/{token}/google-wallet`
// (redirects to Google's save link, signed when it is opened). Without a wallet's
// settings its link is absent; without both, the answer is empty.
import { attendeePageUrl, attendeeToken } from './attendee-token.js';

/** What of the configuration the links depend on: BASE_URL and which wallets are set up. */
export interface WalletSettings {
  baseUrl: string;
  wallet: { apple?: unknown; google?: unknown };
}

export interface WalletLinks {
  /** Apple Wallet: downloads the signed .pkpass. */
  applePass?: string;
  /** Google Wallet: redirects to `https://pay.google.com/gp/v/save/<jwt>`. */
  googleWallet?: string;
}

/** The primary's ticket id, its QR value: the registration id, or its ticket code after a transfer. */
export function primaryTicketId(registration: { id: string; ticket_code: string | null }): string {
  return registration.ticket_code ?? registration.id;
}

/** The links for the page token of an attendee (`/t/{token}`). */
export function walletLinksForToken(config: WalletSettings, token: string): WalletLinks {
  const page = attendeePageUrl(config.baseUrl, token);
  return {
    ...(config.wallet.apple ? { applePass: `${page}/pass.pkpass` } : {}),
    ...(config.wallet.google ? { googleWallet: `${page}/google-wallet` } : {}),
  };
}

/** The links of a registration's (primary) ticket; `{}` when no wallet is configured. */
export function walletLinks(
  config: WalletSettings & { secretsKey: Buffer },
  registration: { id: string; ticket_code: string | null },
): WalletLinks {
  if (!config.wallet.apple && !config.wallet.google) return {};
  return walletLinksForToken(
    config,
    attendeeToken(config.secretsKey, registration.id, primaryTicketId(registration)),
  );
}
