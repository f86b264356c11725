// GET /t/{token}/google-wallet: the ticket of the attendee page's token in Google Wallet.
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { notFound } from '../../../lib/errors.js';
import { googleSaveUrl } from '../google-wallet.js';
import { E, Params, ticketForToken, TOKEN_RULES, type WalletDeps } from './wallet-ticket.js';

const examples: OperationExamples = { responses: {} };

export const openGoogleWalletLink: Operation<WalletDeps> = (app, deps) =>
  app.get(
    '/t/:token/google-wallet',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'openGoogleWalletLink',
        tags: ['tickets'],
        summary: 'Save the ticket to Google Wallet (redirect)',
        description: [
          'Redirects (302) to `https://pay.google.com/gp/v/save/<jwt>`: a JWT signed RS256 with the service account’s key (`GOOGLE_WALLET_ISSUER_ID`, `GOOGLE_WALLET_SA_EMAIL`, `GOOGLE_WALLET_SA_KEY`), `iss` the service account, `aud: google`, `typ: savetowallet`, `origins: [BASE_URL]`, carrying the event’s `EventTicketClass` (`<issuer>.event_<event id>`: name, venue, start and end with +05:30) and the ticket’s `EventTicketObject` (`<issuer>.<ticket id>`, state ACTIVE, barcode `QR_CODE` = the bare ticket id, holder, ticket type) in full, so Google creates both on save and the service calls no Google API. The JWT is signed when the link is opened, so the mail carries this short link rather than the JWT.',
          TOKEN_RULES,
        ].join('\n\n'),
        params: Params,
        response: {
          302: { description: 'To Google’s save page; `Location` holds the signed JWT.', type: 'null' },
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const google = deps.config.wallet.google;
      if (!google)
        throw notFound('Google Wallet passes are not configured on this service', 'wallet_not_configured');
      const url = await googleSaveUrl(
        google,
        await ticketForToken(deps, req.params.token),
        new URL(deps.config.baseUrl).origin,
        deps.clock.now(),
      );
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(url, 302);
    },
  );
