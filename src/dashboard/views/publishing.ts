// Publishing access (docs/decisions/17-the-organisers-office.md, getting started): the organiser's "Request publishing access" box
// and the staff's queue of requests with each account's facts, grant and decline.
import type { presentRequest } from '../../modules/accounts/publishing.js';
import { html, type Html } from '../html.js';
import { badge, csrfField, when } from '../layout.js';

export type RequestView = ReturnType<typeof presentRequest>;

/** Shown where a live event would be published, to an account that may not publish yet. */
export function requestAccessBox(csrf: string, latest: RequestView | null): Html {
  if (latest?.status === 'pending') {
    return html`<div class="card" role="status"><p><strong>Publishing access requested</strong> ${when(latest.createdAt)}. Platform staff review it and mail you their answer. Test events publish without it meanwhile.</p></div>`;
  }
  return html`<form method="post" action="/dashboard/publishing-access" class="card">${csrfField(csrf)}
<h3>Publishing live events</h3>
<p>Live events need publishing access, which platform staff grant. Test events publish without it.</p>
${latest?.status === 'declined' ? html`<p role="note">Your last request was declined: <q>${latest.reason ?? ''}</q></p>` : ''}
<label for="pa-message">A short note for the staff <span class="hint">who you are and what you will sell; at most 1,000 characters</span></label>
<textarea id="pa-message" name="message" required maxlength="1000"></textarea>
<p><button>Request publishing access</button></p></form>`;
}

export interface ReviewedView extends RequestView {
  account: {
    userId: string;
    email: string;
    name: string;
    phone: string | null;
    emailVerified: boolean;
    canPublish: boolean;
    createdAt: string;
    events: { test: number; live: number };
  };
}

/** The staff's queue: pending requests, oldest first, with the account's facts and both decisions. */
export function staffRequests(csrf: string, list: ReviewedView[], count: number): Html {
  return html`<section class="card" aria-labelledby="pr-h"><h2 id="pr-h">Requests for publishing access <span class="muted">(${count} pending)</span></h2>
${
  list.length === 0
    ? html`<p class="muted">No request is waiting.</p>`
    : html`<ul class="cards">${list.map(
        (r) => html`<li class="card" aria-labelledby="pr-${r.id}">
<h3 id="pr-${r.id}">${r.account.name} <span class="mono">${r.account.email}</span></h3>
<dl class="facts">
<dt>Asked</dt><dd>${when(r.createdAt)}</dd>
<dt>Their note</dt><dd>${r.message}</dd>
<dt>Email</dt><dd>${r.account.emailVerified ? badge('verified') : badge('unverified')}</dd>
<dt>Phone</dt><dd>${r.account.phone ?? '—'}</dd>
<dt>Signed up</dt><dd>${when(r.account.createdAt)}</dd>
<dt>Events</dt><dd>${r.account.events.test} test, ${r.account.events.live} live</dd>
<dt>Account id</dt><dd class="mono">${r.account.userId}</dd>
</dl>
<div class="actions">
<form method="post" action="/dashboard/staff/publishing-requests/${encodeURIComponent(r.id)}/grant" data-confirm="Let ${r.account.email} publish live events?">${csrfField(csrf)}<button aria-label="Grant publishing access to ${r.account.email}">Grant</button></form>
</div>
<form method="post" action="/dashboard/staff/publishing-requests/${encodeURIComponent(r.id)}/decline">${csrfField(csrf)}
<label for="dr-${r.id}">Reason to decline <span class="hint">mailed to them</span></label><textarea id="dr-${r.id}" name="reason" required maxlength="1000"></textarea>
<button class="secondary" aria-label="Decline the request of ${r.account.email}">Decline</button></form>
</li>`,
      )}</ul>`
}
</section>`;
}
