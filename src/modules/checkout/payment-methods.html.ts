// The hosted page's choice of how to pay (docs/decisions/24-payment-outside-the-gateway.md): the
// gateway, checked by default, beside the event's enabled offline methods, with the organiser's
// instructions, which the page script shows while an offline method is chosen.
import { escapeHtml as h } from '../../lib/html.js';
import type { PriceRow } from '../events/events.service.js';
import type { OfflinePaymentDoc } from '../../db/database.js';
import { paragraphs } from './layout.html.js';
import { errorSlot, option } from './session-choices.html.js';
import type { Strings } from './strings.js';

type Settings = Pick<OfflinePaymentDoc, 'enabled' | 'methods' | 'instructions' | 'payWithinDays'>;

/** Whether the page offers a choice: offline payment enabled with a method, and something to pay for. */
export function offersOfflinePayment(settings: Settings, price: number, prices: PriceRow[]): boolean {
  const paid = price > 0 || prices.some((r) => r.prices.some((x) => x.paise > 0));
  return settings.enabled && settings.methods.length > 0 && paid;
}

/** The radio group; '' when the event takes only the gateway (or the booking holds a waitlist offer's seat). */
export function paymentMethodChoices(
  s: Strings,
  settings: Settings,
  offered: { price: number; prices: PriceRow[]; waitlistOffer: boolean },
): string {
  if (offered.waitlistOffer || !offersOfflinePayment(settings, offered.price, offered.prices)) return '';
  const later = s.payLater(settings.payWithinDays);
  const rows = [
    option('paymentMethod', 'gateway', s.payOnline, '', s.payOnlineNote, {
      id: 'pm-gateway',
      checked: true,
    }),
    ...settings.methods.map((m) =>
      option('paymentMethod', m, s.offlineMethods[m], '', later, { id: `pm-${m}` }),
    ),
  ];
  const instructions = settings.instructions.trim()
    ? `<div class="instructions" id="payment-instructions" hidden><p><strong>${h(s.howToPayOrganiser)}</strong></p>${paragraphs(settings.instructions)}</div>`
    : '';
  return `<fieldset class="choices" id="payment-method" role="radiogroup" aria-describedby="paymentMethod-error"><legend>${h(s.howToPay)}</legend>${rows.join('\n')}${instructions}${errorSlot('paymentMethod')}</fieldset>`;
}
