// "Save to Google Wallet" (docs/guides/tickets-wallet-and-whatsapp.md): a link
// `https://pay.google.com/gp/v/save/<jwt>` whose JWT, signed RS256 with the service
// account's key, carries the event's EventTicketClass and the ticket's EventTicketObject in
// full ("fat" JWT): Google creates both on save, so the service makes no call to Google's
// REST API. The object's barcode is the bare ticket id, as on the mailed QR.
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import type { GoogleWalletConfig } from '../../config-channels.js';
import { walletTimes } from '../../lib/event-time.js';
import { ticketLabel, type TicketFacts } from './ticket-facts.js';

export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** Google's ids are `<issuerId>.<suffix>`, the suffix of letters, digits, `.`, `_` and `-`. */
const suffix = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
const text = (value: string) => ({ defaultValue: { language: 'en-IN', value } });

/**
 * The class a ticket belongs to: one per event, and one per track (a class carries the date
 * and time Google shows, and each session has its own).
 */
function classId(google: Pick<GoogleWalletConfig, 'issuerId'>, facts: TicketFacts): string {
  return `${google.issuerId}.event_${suffix(facts.event.id)}${facts.trackIndex === null ? '' : `_track_${facts.trackIndex}`}`;
}

export function eventTicketClass(
  google: Pick<GoogleWalletConfig, 'issuerId'>,
  facts: TicketFacts,
): Record<string, unknown> {
  const times = walletTimes(facts.session, facts.timeZone);
  return {
    id: classId(google, facts),
    issuerName: facts.organiserName,
    eventName: text(facts.trackTitle ? `${facts.event.title} · ${facts.trackTitle}` : facts.event.title),
    reviewStatus: 'UNDER_REVIEW',
    // The service keeps one location text: it is the venue's name (an address too would double the link's share of it).
    ...(facts.event.location ? { venue: { name: text(facts.event.location) } } : {}),
    ...(times ? { dateTime: { start: times.start, end: times.end } } : {}),
  };
}

export function eventTicketObject(
  google: Pick<GoogleWalletConfig, 'issuerId'>,
  facts: TicketFacts,
): Record<string, unknown> {
  return {
    id: `${google.issuerId}.${suffix(facts.ticketId)}`,
    classId: classId(google, facts),
    state: 'ACTIVE',
    barcode: { type: 'QR_CODE', value: facts.ticketId, alternateText: facts.ticketId },
    ticketHolderName: facts.holderName,
    ticketType: text(ticketLabel(facts)),
    // Google's own seat fields: a seated ticket's section, row and seat number.
    ...(facts.seat
      ? {
          seatInfo: {
            ...(facts.seat.section ? { section: text(facts.seat.section) } : {}),
            row: text(facts.seat.row),
            seat: text(String(facts.seat.number)),
          },
        }
      : {}),
  };
}

const keys = new WeakMap<GoogleWalletConfig, Promise<CryptoKey>>();
function signingKey(google: GoogleWalletConfig): Promise<CryptoKey> {
  let key = keys.get(google);
  if (!key) keys.set(google, (key = importPKCS8(google.privateKey, 'RS256')));
  return key;
}

/** The save link of a ticket. `origin` is the service's own (BASE_URL), where the button is shown. */
export async function googleSaveUrl(
  google: GoogleWalletConfig,
  facts: TicketFacts,
  origin: string,
  now: Date,
): Promise<string> {
  const jwt = await new SignJWT({
    origins: [origin],
    typ: 'savetowallet',
    payload: {
      eventTicketClasses: [eventTicketClass(google, facts)],
      eventTicketObjects: [eventTicketObject(google, facts)],
    },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(google.serviceAccountEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(await signingKey(google));
  return GOOGLE_SAVE_URL + jwt;
}
