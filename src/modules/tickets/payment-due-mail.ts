// The buyer's mails about a booking to be paid outside the gateway
// (docs/decisions/24-payment-outside-the-gateway.md): how to pay (the organiser's instructions),
// how much, the reference to quote and by when; for `upi_to_organiser` a `upi://pay` link and
// its QR code, which any UPI app opens with the payee, amount and reference filled in. A
// reminder a day before payBy says the same. Pure: the job gathers the facts.
import { formatInstant } from '../../lib/event-time.js';
import { escapeHtml as h } from '../../lib/html.js';
import { formatMoney } from '../../lib/money.js';
import { qrPng } from '../../lib/qr-png.js';
import { mailHtml } from '../mail/mail-html.js';
import type { MailAttachment, OutgoingMail } from '../mail/mailer.js';

export interface PaymentDueMailInput {
  kind: 'awaiting' | 'reminder';
  to: { name: string; email: string };
  event: { title: string };
  method: 'bank_transfer' | 'upi_to_organiser' | 'cash_at_venue';
  reference: string;
  amountPaise: number;
  payBy: Date;
  timeZone: string;
  instructions: string;
  /** The organiser's UPI id and payee name, for `upi_to_organiser`. */
  upi: { id: string; name: string } | null;
  testMode: boolean;
  sender: { name: string | undefined; replyTo: string | undefined };
}

const METHOD_WORDS = {
  bank_transfer: 'by bank transfer',
  upi_to_organiser: 'by UPI to the organiser',
  cash_at_venue: 'in cash at the venue',
} as const;

/** The UPI deep link (NPCI's `upi://pay`): payee, name, amount in rupees, INR, and the reference as the note. */
export function upiPayLink(
  upi: { id: string; name: string },
  amountPaise: number,
  reference: string,
): string {
  const q = [
    `pa=${encodeURIComponent(upi.id)}`,
    `pn=${encodeURIComponent(upi.name)}`,
    `am=${(amountPaise / 100).toFixed(2)}`,
    'cu=INR',
    `tn=${encodeURIComponent(reference)}`,
  ];
  return `upi://pay?${q.join('&')}`;
}

export function renderPaymentDueMail(m: PaymentDueMailInput): OutgoingMail {
  const amount = formatMoney(m.amountPaise);
  const by = formatInstant(m.payBy, m.timeZone);
  const subject = `${m.kind === 'reminder' ? 'Reminder: pay' : 'Pay'} ${amount} by ${by}: ${m.event.title}`;
  const link =
    m.method === 'upi_to_organiser' && m.upi ? upiPayLink(m.upi, m.amountPaise, m.reference) : null;
  const lines = [
    m.kind === 'reminder'
      ? `Your booking for ${m.event.title} is not paid yet. It is cancelled and its seats given to others unless ${amount} is paid by ${by}.`
      : `Your booking for ${m.event.title} is held for you until ${by}. Pay ${amount} ${METHOD_WORDS[m.method]} by then, quoting the reference ${m.reference}; the organiser confirms it and your ticket follows by mail.`,
    `Reference: ${m.reference}`,
    `Amount: ${amount}`,
    ...(m.instructions ? [`How to pay: ${m.instructions}`] : []),
    ...(link ? [`Pay with any UPI app: ${link}`] : []),
    ...(m.testMode ? ['This is a test-mode booking: no money moves.'] : []),
  ];
  const cid = `upi-${m.reference}@payment`;
  const text = [
    `Hello ${m.to.name},`,
    '',
    ...lines.flatMap((l) => [l, '']),
    ...(m.sender.name ? [m.sender.name] : []),
  ].join('\n');
  const html = mailHtml(
    subject,
    [
      `<p>Hello ${h(m.to.name)},</p>`,
      ...lines.map((l) => `<p>${h(l)}</p>`),
      link ? `<p><a href="${h(link)}">Pay ${h(amount)} with a UPI app</a></p>` : '',
      link
        ? `<p><img src="cid:${h(cid)}" alt="UPI QR code for ${h(m.reference)}" width="240" height="240"></p>`
        : '',
      m.sender.name ? `<p>${h(m.sender.name)}</p>` : '',
    ].join('\n'),
  );
  const attachments: MailAttachment[] = link
    ? [
        {
          filename: `pay-${m.reference}.png`,
          content: qrPng(link, { errorCorrectionLevel: 'M', margin: 2, width: 320 }),
          contentType: 'image/png',
          cid,
        },
      ]
    : [];
  return {
    to: m.to.email,
    subject,
    text,
    html,
    attachments,
    fromName: m.sender.name,
    replyTo: m.sender.replyTo,
  };
}
