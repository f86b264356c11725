// The bank statement upload (docs/decisions/24-payment-outside-the-gateway.md): the statement,
// then which of its columns hold the date, narration and amount (remembered for the account),
// then what was marked paid and what is listed for the organiser to decide.
import type { StatementMappingDoc } from '../../db/database.js';
import type { StatementSummary } from '../../modules/statements/upload-statement.service.js';
import type { ListReason } from '../../modules/statements/match-statement.js';
import { html, type Html } from '../html.js';
import { csrfField, rupees } from '../layout.js';
import { moneyTabs } from './money.js';

/** What the form takes: the dashboard's form body limit leaves room for the rest. */
export const STATEMENT_FORM_MAX = 200_000;

const REASONS: Record<ListReason, string> = {
  no_reference: 'No booking reference in the narration',
  several_references: 'More than one reference on the line',
  unknown_reference: 'No booking has this reference',
  duplicate_reference: 'The reference is on more than one line',
  amount_differs: 'The amount is not the amount due',
  not_pending: 'The booking is no longer awaiting payment',
  already_paid: 'Already marked paid',
  unreadable_line: 'The date or amount could not be read',
};

export function statementUploadPage(csrf: string): Html {
  return html`${moneyTabs('statement', true)}
<section class="card" aria-labelledby="st-h"><h2 id="st-h">Upload bank statement</h2>
<p>Export your bank account’s statement as CSV and choose it here (or paste it). A credit whose narration carries a booking’s reference (TKT-…) for exactly its amount due marks that booking paid by bank transfer; every other credit is listed for you to decide. Nothing is guessed, and uploading a statement again marks nothing twice.</p>
<form method="post" action="/dashboard/money/statements/columns">${csrfField(csrf)}
<label for="st-file">Statement file (CSV)</label>
<input id="st-file" type="file" accept=".csv,text/csv" data-fill="st-csv">
<label for="st-csv">The statement’s text <span class="hint">filled from the file, or pasted; at most ${STATEMENT_FORM_MAX.toLocaleString('en-IN')} characters</span></label>
<textarea id="st-csv" name="csv" rows="10" required maxlength="${STATEMENT_FORM_MAX}" spellcheck="false"></textarea>
<button>Next: match the columns</button>
</form></section>`;
}

function columnSelect(
  id: string,
  name: string,
  label: string,
  columns: string[],
  chosen: string | undefined,
  optional: boolean,
): Html {
  return html`<div><label for="${id}">${label}</label><select id="${id}" name="${name}"${optional ? '' : ' required'}>
${optional ? html`<option value=""${chosen === undefined ? ' selected' : ''}>— none —</option>` : ''}${columns.map(
  (c) => html`<option${c === chosen ? ' selected' : ''}>${c}</option>`,
)}</select></div>`;
}

export function statementMappingPage(
  csrf: string,
  csv: string,
  columns: string[],
  mapping: StatementMappingDoc | undefined,
  source: 'remembered' | 'recognised' | null,
): Html {
  const said =
    source === 'remembered'
      ? 'These are the columns your last statement used.'
      : source === 'recognised'
        ? 'These columns were recognised from the statement’s header; check them.'
        : 'Choose which column holds what.';
  return html`${moneyTabs('statement', true)}
<section class="card" aria-labelledby="map-h"><h2 id="map-h">Match the statement’s columns</h2>
<p>${said} Your choice is remembered for your next upload.</p>
<form method="post" action="/dashboard/money/statements">${csrfField(csrf)}
<input type="hidden" name="csv" value="${csv}">
<fieldset><legend>Which column holds what</legend>
<div class="row">
${columnSelect('map-date', 'date', 'Date', columns, mapping?.date, false)}
${columnSelect('map-narration', 'narration', 'Narration (description)', columns, mapping?.narration, false)}
</div>
<p class="hint">Amounts: either one Amount column (a minus sign or “Dr” marks money out), or a Credit column with its Debit column.</p>
<div class="row">
${columnSelect('map-amount', 'amount', 'Amount', columns, mapping?.amount, true)}
${columnSelect('map-credit', 'credit', 'Credit (deposit)', columns, mapping?.credit, true)}
${columnSelect('map-debit', 'debit', 'Debit (withdrawal)', columns, mapping?.debit, true)}
</div></fieldset>
<button>Mark matching bookings paid</button>
</form></section>
<p><a href="/dashboard/money/statements">← Choose another statement</a></p>`;
}

const booking = (id: string | undefined) =>
  id === undefined
    ? '—'
    : html`<a class="mono" href="/dashboard/registrations/${encodeURIComponent(id)}">${id}</a>`;
const money = (p: number | undefined) => (p === undefined ? '—' : rupees(p / 100));

export function statementResultPage(s: StatementSummary): Html {
  return html`${moneyTabs('statement', true)}
<section aria-labelledby="res-h"><h2 id="res-h">Statement read</h2>
<div class="grid stats">
<div class="card"><span class="stat" id="st-marked">${s.marked.length}</span> marked paid</div>
<div class="card"><span class="stat" id="st-listed">${s.listed.length}</span> for you to decide</div>
<div class="card"><span class="stat">${s.debits}</span> debits (not payments)</div>
</div></section>
<section aria-labelledby="listed-h"><h2 id="listed-h">For you to decide</h2>
${
  s.listed.length === 0
    ? html`<p class="muted">Nothing: every credit matched a booking.</p>`
    : html`<div class="table-wrap"><table class="cards-narrow" id="st-listed-table"><caption class="muted">Credits not marked paid, in the order of the file</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Why</th><th scope="col">Reference</th><th scope="col" class="num">Credited</th><th scope="col" class="num">Due</th><th scope="col">Booking</th></tr></thead>
<tbody>${s.listed.map(
        (l) =>
          html`<tr><td class="num" data-label="Line">${l.line}</td><td data-label="Why">${REASONS[l.reason]}</td><td class="mono" data-label="Reference">${l.reference ?? '—'}</td><td class="num" data-label="Credited">${money(l.creditPaise)}</td><td class="num" data-label="Due">${money(l.amountDuePaise)}</td><td data-label="Booking">${booking(l.registrationId)}</td></tr>`,
      )}</tbody></table></div>`
}</section>
<section aria-labelledby="marked-h"><h2 id="marked-h">Marked paid</h2>
${
  s.marked.length === 0
    ? html`<p class="muted">None by this upload.</p>`
    : html`<div class="table-wrap"><table class="cards-narrow"><caption class="muted">Bookings marked paid by bank transfer</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th><th scope="col">Booking</th></tr></thead>
<tbody>${s.marked.map(
        (m) =>
          html`<tr><td class="num" data-label="Line">${m.line}</td><td class="mono" data-label="Reference">${m.reference}</td><td class="num" data-label="Amount">${money(m.creditPaise)}</td><td data-label="Booking">${booking(m.registrationId)}</td></tr>`,
      )}</tbody></table></div>`
}</section>
<p><a href="/dashboard/money/statements">Upload another statement</a></p>`;
}
