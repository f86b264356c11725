// GET /t/{token}/pass.pkpass and GET /t/{token}/google-wallet: the ticket of the attendee
// page's token in Apple Wallet and Google Wallet. Public: the token (registration id and a
// 132-bit MAC over it and the current ticket id) is the credential, so an unknown, bent or
// retired (transferred) token is 404, like a wallet that is not configured.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { findUsersById } from '../accounts/accounts.service.js';
import * as events from '../events/events.service.js';
import * as registrations from '../registrations/registrations.service.js';
import { attendeeTokenMatches, attendeeTokenRegistration } from '../../lib/attendee-token.js';
import { buildApplePass, PKPASS_TYPE } from './apple-pass.js';
import { googleSaveUrl } from './google-wallet.js';
import type { TicketFacts } from './ticket-facts.js';
import { primaryTicketId } from '../../lib/wallet-links.js';

interface WalletDeps {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
}

const NO_TICKET = 'no ticket for this link (it may have been transferred)';

/** The ticket a page token names, when the token holds for its current ticket id. */
export async function ticketForToken(deps: WalletDeps, token: string): Promise<TicketFacts> {
  const registrationId = attendeeTokenRegistration(token);
  const reg =
    registrationId === undefined ? undefined : await registrations.findRegistration(deps.db, registrationId);
  if (!reg || !attendeeTokenMatches(deps.config.secretsKey, token, reg.id, primaryTicketId(reg)))
    throw notFound(NO_TICKET);
  if (reg.status !== 'confirmed')
    throw conflict('not_confirmed', `this ticket is ${reg.status}, not confirmed`);
  const event = await events.findEvent(deps.db, reg.event_id);
  if (!event) throw notFound(NO_TICKET);
  const [organiser] = await findUsersById(deps.db, [event.account_id]);
  const session = events.sessionOf(event, reg.sub_event_id, deps.config.eventTimeZone);
  return {
    ticketId: primaryTicketId(reg),
    holderName: reg.name,
    ticketType: reg.ticket_type,
    trackTitle: session.title,
    trackIndex: session.trackIndex,
    event: { id: event.id, title: event.title, location: event.location },
    session: session.span,
    timeZone: deps.config.eventTimeZone,
    organiserName: organiser?.name || 'Tickets',
  };
}

const Params = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The attendee page’s token, from the ticket mail (`/t/{token}`).',
  }),
});
const E = Type.Ref('Error');
const TOKEN_RULES =
  'Public: the token in the path is the credential (the attendee page’s: the registration id and a 132-bit MAC over it and the current ticket id). An unknown, altered or retired token (a transfer issues a new ticket id, which retires every earlier link) answers 404; so does a wallet whose settings are absent. A booking that is not confirmed (pending, cancelled, refunded) answers 409 `not_confirmed`. Answers are `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.';

export const walletRoutes =
  (deps: WalletDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/t/:token/pass.pkpass',
      {
        config: { auth: { kind: 'public' } },
        schema: {
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
        const pass = buildApplePass(apple, await ticketForToken(deps, req.params.token));
        return reply
          .type(PKPASS_TYPE)
          .header('content-disposition', 'attachment; filename="ticket.pkpass"')
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .header('x-content-type-options', 'nosniff')
          .send(pass);
      },
    );

    app.get(
      '/t/:token/google-wallet',
      {
        config: { auth: { kind: 'public' } },
        schema: {
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
  };
