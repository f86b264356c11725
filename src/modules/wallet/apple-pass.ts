// The Apple Wallet event ticket (docs/guides/tickets-wallet-and-whatsapp.md): pass.json, icons and a
// logo, a manifest of their SHA-1 hashes and a detached PKCS#7 signature of the manifest by
// the Pass Type ID certificate with Apple's WWDR intermediate, zipped by passkit-generator.
// The barcode is the bare ticket id, the same value as the mailed QR; `serialNumber` is the
// ticket id too, so a pass downloaded again replaces the one on the phone.
import type { ApplePassConfig } from '../../config-channels.js';
import { bitmapPng } from '../../lib/qr-png.js';
import { walletTimes } from '../../lib/event-time.js';
import { ticketLabel, type TicketFacts } from './ticket-facts.js';

export const PKPASS_TYPE = 'application/vnd.apple.pkpass';

/** A ticket, drawn in `cells` × `cells`: a band with a notch on each side and a perforation. */
function ticketGlyph(cells: number, scale: number): Buffer {
  const top = Math.round(cells * 0.25);
  const bottom = cells - top - 1;
  const left = Math.round(cells * 0.1);
  const right = cells - left - 1;
  const mid = Math.floor(cells / 2);
  const notch = Math.max(2, Math.round(cells * 0.1));
  const perforation = Math.round(cells * 0.65);
  return bitmapPng(cells, scale, (r, c) => {
    if (r < top || r > bottom || c < left || c > right) return false;
    if ((r - mid) ** 2 + (c - left) ** 2 < notch ** 2 || (r - mid) ** 2 + (c - right) ** 2 < notch ** 2)
      return false;
    return !(c === perforation && r % 2 === 0);
  });
}

let images: Record<string, Buffer> | undefined;
/** Icons (29 pt at 1×, 2×, 3×) and a square logo (50 pt), made once. */
function passImages(): Record<string, Buffer> {
  images ??= {
    'icon.png': ticketGlyph(29, 1),
    'icon@2x.png': ticketGlyph(29, 2),
    'icon@3x.png': ticketGlyph(29, 3),
    'logo.png': ticketGlyph(50, 1),
    'logo@2x.png': ticketGlyph(50, 2),
  };
  return images;
}

/** pass.json of a ticket. */
export function passJson(
  apple: Pick<ApplePassConfig, 'passTypeId' | 'teamId'>,
  facts: TicketFacts,
): Record<string, unknown> {
  const times = walletTimes(facts.session, facts.timeZone);
  const when = times
    ? [
        {
          key: 'when',
          label: 'DATE',
          value: times.start,
          dateStyle: 'PKDateStyleMedium',
          timeStyle: times.dateOnly ? 'PKDateStyleNone' : 'PKDateStyleShort',
          ignoresTimeZone: true,
        },
      ]
    : [{ key: 'when', label: 'DATE', value: 'To be announced' }];
  return {
    formatVersion: 1,
    passTypeIdentifier: apple.passTypeId,
    teamIdentifier: apple.teamId,
    serialNumber: facts.ticketId,
    organizationName: facts.organiserName,
    description: `Ticket: ${facts.event.title}`,
    barcodes: [
      {
        format: 'PKBarcodeFormatQR',
        message: facts.ticketId,
        messageEncoding: 'iso-8859-1',
        altText: facts.ticketId,
      },
    ],
    ...(times ? { relevantDates: [{ startDate: times.start, endDate: times.end }] } : {}),
    eventTicket: {
      primaryFields: [{ key: 'event', label: 'EVENT', value: facts.event.title }],
      secondaryFields: when,
      auxiliaryFields: [
        { key: 'holder', label: 'NAME', value: facts.holderName },
        { key: 'type', label: 'TICKET', value: ticketLabel(facts) },
        ...(facts.seat ? [{ key: 'seat', label: 'SEAT', value: facts.seat.words }] : []),
      ],
      backFields: [
        { key: 'venue', label: 'Venue', value: facts.event.location ?? 'To be announced' },
        { key: 'ticketId', label: 'Ticket id', value: facts.ticketId },
        { key: 'organiser', label: 'Organiser', value: facts.organiserName },
      ],
    },
  };
}

/**
 * The signed .pkpass archive of a ticket. passkit-generator (with its own TLS and X.509 code) is
 * loaded on the first pass, not at start: most processes never sign one.
 */
export async function buildApplePass(apple: ApplePassConfig, facts: TicketFacts): Promise<Buffer> {
  const { PKPass } = await import('passkit-generator');
  const pass = new PKPass(
    { 'pass.json': Buffer.from(JSON.stringify(passJson(apple, facts))), ...passImages() },
    { wwdr: apple.wwdr, signerCert: apple.cert, signerKey: apple.key },
  );
  return pass.getAsBuffer();
}
