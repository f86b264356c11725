// GET /t/{token}/pass.pkpass: the ticket of the attendee page's token in Apple Wallet.
import type { OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { notFound } from '../../../lib/errors.js';
import { buildApplePass, PKPASS_TYPE } from '../apple-pass.js';
import { E, Params, ticketForToken, TOKEN_RULES, type WalletDeps } from './wallet-ticket.js';

const examples: OperationExamples = { responses: { '200': '(binary: a signed .pkpass zip)' } };

export const getApplePass: Operation<WalletDeps> = (app, deps) =>
  app.get(
    '/t/:token/pass.pkpass',
    {
      config: { auth: { kind: 'public' }, examples },
      schema: {
        operationId: 'getApplePass',
        tags: ['tickets'],
        summary: 'The ticket as an Apple Wallet pass (.pkpass)',
        description: [
          'An Apple Wallet event ticket signed with the Pass Type ID certificate (`APPLE_PASS_TYPE_ID`, `APPLE_TEAM_ID`, `APPLE_PASS_CERT`, `APPLE_PASS_KEY`, `APPLE_WWDR_CERT`): a zip of `pass.json`, icons, a logo, `manifest.json` (SHA-1 of each file) and `signature` (detached PKCS#7 of the manifest, WWDR intermediate included). Its QR barcode is the bare ticket id, the same value as the mailed QR, and so is its `serialNumber` (downloading again replaces the pass). Event name, the booked session’s date and time (its track’s own, else the event’s) in the event’s time zone (`EVENT_TIME_ZONE`) with its offset written out, venue, holder and ticket type are on it; the primary’s ticket only (team members’ tickets come by mail).',
          TOKEN_RULES,
        ].join('\n\n'),
        params: Params,
        response: {
          200: {
            description: 'The signed pass.',
            content: { [PKPASS_TYPE]: { schema: { type: 'string', format: 'binary' } } },
          },
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const apple = deps.config.wallet.apple;
      if (!apple)
        throw notFound('Apple Wallet passes are not configured on this service', 'wallet_not_configured');
      const pass = await buildApplePass(apple, await ticketForToken(deps, req.params.token));
      return reply
        .type(PKPASS_TYPE)
        .header('content-disposition', 'attachment; filename="ticket.pkpass"')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(pass);
    },
  );
