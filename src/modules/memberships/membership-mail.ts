// The member's mails (docs/decisions/16-the-buyers-ticket.md): a confirmation when a membership starts
// (the plan, the period, and the membership id that members-only tickets ask for), and a
// payment-received mail for every charge. Pure rendering; the jobs send them.
import { escapeHtml } from '../../lib/html.js';
import { formatDate } from '../../lib/event-time.js';
import { formatMoney } from '../../lib/money.js';
import type { OutgoingMail } from '../mail/mailer.js';
import type { PlanRow } from './memberships.repo.js';

export interface MemberFacts {
  id: string;
  name: string;
  email: string;
  validUntil: Date | null;
  source: 'api' | 'manual';
}

type PlanFacts = Pick<PlanRow, 'name' | 'amount_paise' | 'kind' | 'term_months' | 'period' | 'description'>;

const PERIOD_WORDS: Record<NonNullable<PlanRow['period']>, string> = {
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
};

/** "₹1,200 for 12 months", "₹500 every month". */
export function planPrice(plan: PlanFacts): string {
  const amount = formatMoney(Number(plan.amount_paise));
  if (plan.kind === 'fixed_term')
    return `${amount} for ${plan.term_months} ${plan.term_months === 1 ? 'month' : 'months'}`;
  return `${amount} every ${PERIOD_WORDS[plan.period ?? 'monthly']}`;
}

/** The period the member has now, in words. */
function periodLine(plan: PlanFacts, m: MemberFacts, from: Date, timeZone: string): string {
  if (m.validUntil !== null) return `${formatDate(from, timeZone)} – ${formatDate(m.validUntil, timeZone)}`;
  // A mandate approved but not yet charged: the first charge starts the first period.
  return `from your first payment, renewed every ${PERIOD_WORDS[plan.period ?? 'monthly']} by your mandate until you cancel`;
}

function html(paragraphs: readonly string[], rows: readonly [string, string][]): string {
  return `<!doctype html><html><body style="font-family:sans-serif">
${paragraphs
  .slice(0, 2)
  .map((p) => `<p>${escapeHtml(p)}</p>`)
  .join('\n')}
<table>${rows.map(([k, v]) => `<tr><th align="left" valign="top">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
${paragraphs
  .slice(2)
  .map((p) => `<p>${escapeHtml(p)}</p>`)
  .join('\n')}
</body></html>`;
}

function compose(
  to: string,
  subject: string,
  paragraphs: readonly string[],
  rows: readonly [string, string][],
): OutgoingMail {
  const text = [
    paragraphs[0],
    '',
    paragraphs[1],
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...paragraphs.slice(2).flatMap((p) => ['', p]),
  ].join('\n');
  return { to, subject, text, html: html(paragraphs, rows) };
}

export function renderMembershipConfirmation(input: {
  plan: PlanFacts;
  member: MemberFacts;
  organiserName: string | undefined;
  timeZone: string;
  startedAt: Date;
}): OutgoingMail {
  const { plan, member } = input;
  const rows: [string, string][] = [
    ['Membership id', member.id],
    ['Plan', `${plan.name} (${planPrice(plan)})`],
    ['Period', periodLine(plan, member, input.startedAt, input.timeZone)],
    ['Email', member.email],
  ];
  return compose(
    member.email,
    `Your membership: ${plan.name}`,
    [
      `Hello ${member.name},`,
      `You are a member: ${plan.name}${input.organiserName ? ` with ${input.organiserName}` : ''}.`,
      `Members-only tickets ask for your membership id. Give ${member.id} with this email address (${member.email}) when you book.`,
      ...(plan.description ? [plan.description] : []),
      ...(input.organiserName ? [input.organiserName] : []),
    ],
    rows,
  );
}

export function renderPaymentReceived(input: {
  plan: PlanFacts;
  member: MemberFacts;
  payment: { id: string; amountPaise: number; paidAt: Date; validUntil: Date | null };
  organiserName: string | undefined;
  timeZone: string;
}): OutgoingMail {
  const { plan, member, payment } = input;
  const rows: [string, string][] = [
    ['Amount', formatMoney(payment.amountPaise)],
    ['Paid on', formatDate(payment.paidAt, input.timeZone)],
    ['Payment', payment.id],
    ['Plan', plan.name],
    ['Membership id', member.id],
    ...(payment.validUntil
      ? ([['Paid until', formatDate(payment.validUntil, input.timeZone)]] as [string, string][])
      : []),
  ];
  return compose(
    member.email,
    `Payment received: ${plan.name}`,
    [
      `Hello ${member.name},`,
      `We received your payment of ${formatMoney(payment.amountPaise)} for ${plan.name}.`,
      'This is a receipt, not a tax invoice.',
      ...(input.organiserName ? [input.organiserName] : []),
    ],
    rows,
  );
}
