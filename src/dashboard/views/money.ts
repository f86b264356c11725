// Money screens: the balance of the dashboard's mode, withdrawals to UPI with their
// payouts (and, in test mode, the sandbox payout gateway's settle buttons), and the
// ledger entries a page at a time. Every number comes from the ledger and payouts
// services; nothing here decides what may be paid out.
import type { LedgerKind, Mode } from '../../db/database.js';
import type { EntryView } from '../../modules/ledger/ledger.service.js';
import { canMove, type PayoutRow, type SandboxOutcome } from '../../modules/payouts/payouts.service.js';
import { UPI_ID_MAX } from '../../lib/upi.js';
import { html, type Html } from '../html.js';
import { badge, type Can, csrfField, rupees, tabs, when } from '../layout.js';
import { ledgerDownload } from './exports.js';

/** `statements`: the viewer may mark bookings paid (payments.record), so the upload is offered. */
export function moneyTabs(current: 'balance' | 'ledger' | 'statement', statements = false): Html {
  return tabs(
    [
      { label: 'Balance and withdrawals', href: '/dashboard/money', current: current === 'balance' },
      { label: 'Ledger', href: '/dashboard/money/ledger', current: current === 'ledger' },
      ...(statements
        ? [{ label: 'Bank statement', href: '/dashboard/money/statements', current: current === 'statement' }]
        : []),
    ],
    'Money sections',
  );
}

export interface MoneyData {
  mode: Mode;
  /** Rupees. */
  available: number;
  pending: number;
  clearingDays: number;
  minimumRupees: number;
  payouts: PayoutRow[];
  pages: { next: string | null; first: boolean };
  /** Live mode only: what the payouts service will ask for. */
  emailVerified: boolean;
  payoutsConfigured: boolean;
}

const paise = (p: number | string) => Number(p) / 100;

/** Settle buttons of the sandbox payout gateway, in the order they are offered. */
const SETTLE: { outcome: SandboxOutcome; to: PayoutRow['status']; label: string }[] = [
  { outcome: 'process', to: 'processed', label: 'Process' },
  { outcome: 'fail', to: 'failed', label: 'Fail' },
  { outcome: 'reverse', to: 'reversed', label: 'Reverse' },
  { outcome: 'cancel', to: 'cancelled', label: 'Cancel' },
];

function balanceCards(d: MoneyData, csrf?: string): Html {
  const clearing =
    d.clearingDays === 0
      ? 'Sales count as available at once.'
      : `Sales become available ${d.clearingDays} working day${d.clearingDays === 1 ? '' : 's'} after payment.`;
  return html`<section aria-labelledby="bal-h"><h2 id="bal-h">Balance <span class="muted">(${d.mode} mode)</span></h2>
<div class="grid stats">
<div class="card"><span class="stat" id="bal-available">${rupees(d.available)}</span> available to withdraw</div>
<div class="card"><span class="stat" id="bal-pending">${rupees(d.pending)}</span> pending</div>
</div>
<p class="muted">${clearing} Net of fees and refunds; ${d.mode === 'test' ? 'test-mode sales and sandbox payouts only, no real money' : 'live sales only'}.</p>
${d.available < 0 ? html`<p role="note"><strong>The available balance is below zero</strong>: the platform fees on sales paid to you directly (outside the gateway), or refunds of money already paid out, count against it. No withdrawal until it is positive again.</p>` : ''}
${
  d.mode === 'test' && d.pending > 0 && csrf !== undefined
    ? html`<form method="post" action="/dashboard/money/settle-now" class="testnote" data-confirm="Make every pending test sale available now?">${csrfField(csrf)}
<p>In test mode you need not wait: <strong>Settle now</strong> makes the pending test sales available at once (your test-mode dates stay as they are), so you can try a withdrawal.</p>
<button class="secondary">Settle now (test)</button></form>`
    : ''
}
</section>`;
}

function withdrawForm(csrf: string, d: MoneyData): Html {
  const blockers: Html[] = [];
  if (d.mode === 'live' && !d.emailVerified)
    blockers.push(
      html`<li>Verify your email address first: open the link in the mail sent when you signed up.</li>`,
    );
  if (d.mode === 'live' && !d.payoutsConfigured)
    blockers.push(html`<li>Live payouts are not configured on this service yet (RazorpayX account).</li>`);
  return html`<section class="card" aria-labelledby="wd-h"><h2 id="wd-h">Withdraw to UPI</h2>
${
  d.mode === 'test'
    ? html`<p class="testnote"><strong>Test mode:</strong> the withdrawal goes to the sandbox payout gateway. No money moves; settle it below with the test buttons.</p>`
    : html`<p>Paid through RazorpayX to the UPI id you give, expected in two working days.</p>`
}
${blockers.length > 0 ? html`<ul class="notes">${blockers}</ul>` : ''}
<form method="post" action="/dashboard/money/payouts"${d.mode === 'live' ? html` data-confirm="Send this amount to this UPI id now? A payout cannot be called back."` : ''}>${csrfField(csrf)}
<div class="row">
<div><label for="wd-amount">Amount in rupees <span class="hint">at least ${rupees(d.minimumRupees)}, at most the available balance</span></label>
<input id="wd-amount" name="amount" type="number" min="0" step="0.01" inputmode="decimal" required></div>
<div><label for="wd-upi">UPI id <span class="hint">like name@bank</span></label>
<input id="wd-upi" name="upiId" required maxlength="${UPI_ID_MAX}" autocomplete="off" autocapitalize="none" spellcheck="false"></div>
<div class="fit"><button>${d.mode === 'test' ? 'Withdraw (test)' : 'Withdraw'}</button></div>
</div></form>
</section>`;
}

function settleButtons(csrf: string, p: PayoutRow): Html {
  const offered = SETTLE.filter((s) => canMove(p.status, s.to));
  if (offered.length === 0) return html`<span class="muted">settled</span>`;
  return html`<div class="actions">${offered.map(
    (s) =>
      html`<form method="post" action="/dashboard/money/payouts/${encodeURIComponent(p.id)}/${s.outcome}">${csrfField(csrf)}<button class="secondary" aria-label="${s.label} test payout ${p.id}">${s.label}</button></form>`,
  )}</div>`;
}

/** The withdrawals; without `csrf` (a role that may not withdraw) the test settle buttons are not offered. */
function payoutsTable(csrf: string | undefined, d: MoneyData): Html {
  const test = d.mode === 'test';
  return html`<section aria-labelledby="po-h"><h2 id="po-h">Withdrawals</h2>
${
  d.payouts.length === 0
    ? html`<p class="muted">No withdrawals${d.pages.first ? ' yet' : ' on this page'}.</p>`
    : html`${test ? html`<p class="testnote"><strong>Test mode:</strong> the settle buttons play the sandbox payout gateway (paid with a sandbox UTR, failed, reversed by the bank, or cancelled); failed, reversed and cancelled withdrawals are credited back.</p>` : ''}
<div class="table-wrap"><table class="cards-narrow"><caption class="muted">Withdrawals (${d.mode} mode), newest first</caption>
<thead><tr><th scope="col">Requested</th><th scope="col" class="num">Amount</th><th scope="col">UPI id</th><th scope="col">Status</th><th scope="col">UTR</th><th scope="col">Expected by</th>${
        test ? html`<th scope="col">Sandbox gateway</th><th scope="col">Settle (test)</th>` : ''
      }</tr></thead>
<tbody>${d.payouts.map(
        (
          p,
        ) => html`<tr id="payout-${p.id}"><td data-label="Requested">${when(p.created_at)}<br><span class="mono muted">${p.id}</span></td><td class="num" data-label="Amount">${rupees(paise(p.amount_paise))}</td><td class="mono" data-label="UPI id">${p.upi_id}</td>
<td data-label="Status">${badge(p.status)}${p.failure_reason ? html`<br><span class="muted">${p.failure_reason}</span>` : ''}</td><td class="mono" data-label="UTR">${p.utr ?? '—'}</td><td data-label="Expected by">${p.status === 'processing' ? when(p.expected_by) : '—'}</td>${
          test
            ? html`<td data-label="Sandbox gateway"><span class="mono">${p.gateway_payout_id ?? '—'}</span><br><span class="muted">${p.gateway_status ?? 'not sent'}</span></td><td data-label="Settle (test)">${csrf === undefined ? html`<span class="muted">—</span>` : settleButtons(csrf, p)}</td>`
            : ''
        }</tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Withdrawal pages">
${d.pages.first ? '' : html`<a href="/dashboard/money">Newest withdrawals</a>`}
${d.pages.next ? html`<a href="/dashboard/money?${new URLSearchParams({ after: d.pages.next }).toString()}" rel="next">Older withdrawals</a>` : ''}
</nav>
</section>`;
}

/**
 * The balance page; only a role that may withdraw (owner, finance) sees the withdrawal and test
 * settling forms, and only one that may mark bookings paid (payments.record) the statement tab.
 */
export function moneyPage(csrf: string, d: MoneyData, can: Can = () => true): Html {
  const payouts = can('payouts');
  return html`${moneyTabs('balance', can('payments.record'))}
${balanceCards(d, payouts ? csrf : undefined)}
${payouts ? withdrawForm(csrf, d) : ''}
${payoutsTable(payouts ? csrf : undefined, d)}`;
}

const KIND: Record<LedgerKind, string> = {
  ticket_sale: 'Ticket sale',
  platform_fee: 'Platform fee',
  gateway_fee: 'Gateway charge',
  ticket_refund: 'Refund',
  platform_fee_reversal: 'Platform fee returned',
  membership_payment: 'Membership payment',
  payout_hold: 'Withdrawal',
  payout_credit: 'Withdrawal returned',
  offline_sale: 'Paid to you directly',
  offline_refund: 'Refunded by you directly',
};

const SOURCE: Record<EntryView['sourceType'], string> = {
  registration: 'Registration',
  membership: 'Membership',
  payout: 'Payout',
};

/** Where an entry came from, as a link to it: the booking's page, or the withdrawal on the money page. */
function source(e: EntryView): Html {
  if (e.sourceType === 'registration')
    return html`<a href="/dashboard/registrations/${encodeURIComponent(e.sourceId)}" title="${e.sourceId}">Booking</a>`;
  if (e.sourceType === 'payout')
    return html`<a href="/dashboard/money#payout-${e.sourceId}" title="${e.sourceId}">Withdrawal</a>`;
  return html`${SOURCE[e.sourceType]} <span class="mono">${e.sourceId}</span>${e.ref ? html`<br><span class="muted">payment <span class="mono">${e.ref}</span></span>` : ''}`;
}

export function ledgerPage(
  mode: Mode,
  entries: EntryView[],
  now: Date,
  pages: { next: string | null; first: boolean },
  can: Can = () => true,
): Html {
  return html`${moneyTabs('ledger', can('payments.record'))}
<p>Every change to the ${mode}-mode balance, newest first. Entries are never changed or deleted; the balance is their sum.</p>
${can('exports') ? ledgerDownload(mode) : ''}
${
  entries.length === 0
    ? html`<p class="muted">No entries${pages.first ? ' yet: a paid booking, a membership payment or a withdrawal writes the first' : ' on this page'}.</p>`
    : html`<div class="table-wrap"><table class="cards-narrow"><caption class="muted">Ledger entries (${mode} mode), newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Entry</th><th scope="col" class="num">Amount</th><th scope="col">Source</th><th scope="col">Counts as</th></tr></thead>
<tbody>${entries.map(
        (
          e,
        ) => html`<tr><td data-label="When">${when(e.createdAt)}</td><td data-label="Entry">${KIND[e.kind]}</td><td data-label="Amount" class="num nowrap${e.amountPaise < 0 ? ' debit' : ''}">${e.amountPaise < 0 ? '−' : '+'}${rupees(Math.abs(e.amountPaise) / 100)}</td>
<td data-label="Source">${source(e)}</td>
<td data-label="Counts as">${e.availableFrom === null || e.availableFrom <= now ? 'available' : html`pending until ${when(e.availableFrom)}`}</td></tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Ledger pages">
${pages.first ? '' : html`<a href="/dashboard/money/ledger">Newest entries</a>`}
${pages.next ? html`<a href="/dashboard/money/ledger?${new URLSearchParams({ after: pages.next }).toString()}" rel="next">Older entries</a>` : ''}
</nav>`;
}
