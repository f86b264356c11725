// The dashboard's download buttons for the CSV exports (docs/decisions/17-the-organisers-office.md). Each is a plain link or a GET
// form to a dashboard route that answers the same file as the API, in the dashboard's mode.
import type { Mode } from '../../db/database.js';
import { html, type Html } from '../html.js';

const FORMAT_HINT = 'CSV (UTF-8) for Excel, LibreOffice or Google Sheets';

/** The registrations of an event, with the list's own filters. */
export function registrationsDownload(
  eventId: string,
  filter: { q: string; status: string; track?: string; tier?: string; checkin?: string },
): Html {
  const query = new URLSearchParams(
    Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  ).toString();
  const href = `/dashboard/events/${encodeURIComponent(eventId)}/registrations/export${query ? `?${query}` : ''}`;
  const what =
    filter.q || filter.status || filter.track || filter.tier || filter.checkin
      ? 'The registrations this search shows'
      : 'Every registration';
  return html`<p class="download"><a class="button secondary" href="${href}" download>Download CSV</a> <span class="hint">${what}, with answers, track, check-in and invoice numbers. ${FORMAT_HINT}.</span></p>`;
}

/** The members, of one plan when the list shows one. */
export function membersDownload(planId: string): Html {
  const href = `/dashboard/memberships/export${planId ? `?${new URLSearchParams({ planId }).toString()}` : ''}`;
  return html`<p class="download"><a class="button secondary" href="${href}" download>Download members (CSV)</a> <span class="hint">${planId ? 'This plan’s members' : 'Every member'}, with plan, state and dates. ${FORMAT_HINT}.</span></p>`;
}

/** A range of days (India time) and a download button: the ledger and the GST documents. */
function rangeForm(id: string, action: string, legend: string, what: string): Html {
  return html`<form method="get" action="${action}" class="card download" aria-labelledby="${id}-h">
<h2 id="${id}-h">${legend}</h2>
<p>${what}</p>
<div class="row"><div><label for="${id}-from">From <span class="hint">optional</span></label><input id="${id}-from" name="from" type="date"></div>
<div><label for="${id}-to">To <span class="hint">optional, inclusive</span></label><input id="${id}-to" name="to" type="date"></div>
<div class="fit"><button class="secondary">Download CSV</button></div></div>
<p class="hint">Days in India time; leave both empty for everything. ${FORMAT_HINT}.</p></form>`;
}

export function ledgerDownload(mode: Mode): Html {
  return rangeForm(
    'ledger-dl',
    '/dashboard/money/ledger/export',
    `Download the ${mode}-mode ledger`,
    'Every entry of the days you choose, oldest first, with credits and debits in columns of their own.',
  );
}

export function gstDocumentsDownload(mode: Mode): Html {
  return rangeForm(
    'gst-dl',
    '/dashboard/account/gst/export',
    `GST documents (${mode} mode)`,
    'Tax invoices, bills of supply and credit notes issued on the days you choose, in number order, with every amount of their line.',
  );
}
