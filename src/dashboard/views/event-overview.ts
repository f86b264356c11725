// The event overview's sections: details and publishing, numbers, check-in and door links,
// availability, charts, the embed snippet with its preview, and deletion.
import { html, type Html } from '../html.js';
import { badge, csrfField, eventWhen, progressBar, rupees, when } from '../layout.js';
import { requestAccessBox } from './publishing.js';
import { eventTabs, type OverviewData, trackNumber, trackTimes } from './events.js';

export function overview(csrf: string, d: OverviewData): Html {
  const base = `/dashboard/events/${encodeURIComponent(d.event.id)}`;
  return html`${eventTabs(d.event, 'overview', d.may.manage)}
${facts(csrf, d, base)}

${numbers(d)}

${doorSection(csrf, d, base)}

${availability(d)}

${charts(d)}

${embed(d)}

${d.may.manage ? deleteSection(csrf, base) : ''}`;
}

const paid = (e: OverviewData['event']) =>
  e.price > 0 || e.specialPrices.some((t) => t.price > 0) || e.tracks.some((t) => t.price > 0);

export function doorFragment(door: { expected: number; arrived: number }): Html {
  return html`${progressBar(door.arrived, door.expected, `${door.arrived} of ${door.expected} people checked in`)}`;
}

export function facts(csrf: string, d: OverviewData, base: string): Html {
  const e = d.event;
  const test = e.mode === 'test';
  return html`<section class="card" aria-labelledby="facts-h"><h2 id="facts-h">Details</h2>
<dl class="facts">
<dt>Status</dt><dd>${badge(e.status)} ${e.mode === 'test' ? badge('test') : ''}</dd>
<dt>When</dt><dd>${eventWhen(e.startDate, e.endDate)}</dd>
<dt>Location</dt><dd>${e.location ?? '—'}</dd>
<dt>Price</dt><dd>${e.price === 0 ? 'Free' : rupees(e.price)}</dd>
<dt>Slug</dt><dd class="mono">${e.slug}</dd>
<dt>Ticket emails</dt><dd>${e.ticketEmailsEnabled ? 'sent by the service' : 'off (switched by staff)'}</dd>
</dl>
${
  !d.may.manage
    ? ''
    : e.status === 'draft'
      ? test || d.canPublish
        ? html`${test ? html`<p class="muted">A test event publishes at once: it is never public, and nothing is charged.</p>` : ''}${
            !test && !d.livePayments && paid(e)
              ? html`<p role="note">This event costs money, and the service does not take live payments yet: it can be published once it does (a free event can be published now).</p>`
              : ''
          }<form method="post" action="${base}/publish">${csrfField(csrf)}<input type="hidden" name="status" value="published"><button>Publish</button></form>`
        : requestAccessBox(csrf, d.latestRequest)
      : html`<form method="post" action="${base}/publish" data-confirm="Take this event off sale?">${csrfField(csrf)}<input type="hidden" name="status" value="draft"><button class="secondary">Unpublish</button></form>`
}
</section>`;
}

export function numbers(d: OverviewData): Html {
  const a = d.analytics;
  return html`<section aria-labelledby="numbers-h"><h2 id="numbers-h">Registrations and revenue</h2>
<div class="grid stats">
<div class="card"><span class="stat">${a.confirmedCount}</span> confirmed bookings</div>
<div class="card"><span class="stat">${a.pendingCount}</span> pending</div>
<div class="card"><span class="stat">${a.cancelledCount + a.refundedCount}</span> cancelled or refunded</div>
<div class="card"><span class="stat">${rupees(a.totalRevenue)}</span> gross revenue</div>
</div></section>`;
}

export function doorSection(csrf: string, d: OverviewData, base: string): Html {
  return html`<section class="card" aria-labelledby="door-h"><h2 id="door-h">Check-in</h2>
<div data-poll="${base}/door" data-poll-seconds="15" aria-live="polite">${doorFragment(d.door)}</div>
${d.may.door ? html`<form method="post" action="${base}/door/open">${csrfField(csrf)}<button class="secondary">Open the door screen here</button> <span class="hint">as yourself, for 12 hours, without a door link</span></form>` : ''}
${d.may.manage ? doorLinks(csrf, d, base) : ''}
</section>`;
}

function doorLinks(csrf: string, d: OverviewData, base: string): Html {
  return html`<h3 id="passes-h">Door screen</h3>
<p class="muted">A door link opens the phone door screen for this event to whoever holds it, without an account: scan, search, admit and undo, also offline. It shows names, ticket types and check-in state, never email, phone or money. The link is shown once.</p>
<form method="post" action="${base}/door-passes" class="row">${csrfField(csrf)}
<div><label for="f-pass-label">Label <span class="hint">who or where it is for, e.g. Gate A</span></label><input id="f-pass-label" name="label" maxlength="80" required></div>
${
  d.doorLists.length > 1
    ? html`<div><label for="f-pass-scope">Admits for <span class="hint">a ticket of another session or day is refused</span></label><select id="f-pass-scope" name="scope">${d.doorLists.map((c) => html`<option value="${c.value}">${c.label}</option>`)}</select></div>`
    : ''
}
<div class="fit"><button>Create a door link</button></div>
</form>
${
  d.doorPasses.length > 0
    ? html`<div class="table-wrap"><table aria-labelledby="passes-h"><thead><tr><th scope="col">Label</th><th scope="col">Admits for</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${d.doorPasses.map(
        (
          p,
        ) => html`<tr><td>${p.label}</td><td>${p.admitsFor}</td><td class="nowrap">${when(p.createdAt)}</td><td>${p.revokedAt ? badge('revoked') : p.expiresAt && new Date(p.expiresAt) < new Date() ? badge('expired') : badge('active')}</td>
<td>${p.revokedAt ? '' : html`<form method="post" action="${base}/door-passes/${encodeURIComponent(p.id)}/revoke" data-confirm="Revoke this door link? Whoever holds it is shut out at once.">${csrfField(csrf)}<button class="danger" aria-label="Revoke door link ${p.label}">Revoke</button></form>`}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}`;
}

export function availability(d: OverviewData): Html {
  const e = d.event;
  return html`<section aria-labelledby="avail-h"><h2 id="avail-h">Availability</h2>
<p>${d.availability.soldOut ? html`<strong>Sold out.</strong> ` : ''}${d.availability.taken} seats taken${d.availability.remaining === null ? ' (no limit)' : `, ${d.availability.remaining} left of ${d.availability.capacity}`}.</p>
${
  d.availability.tiers.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Tier</th><th scope="col" class="num">Price</th><th scope="col" class="num">Taken</th><th scope="col" class="num">Left</th><th scope="col">On sale</th></tr></thead>
<tbody>${d.availability.tiers.map(
        (t) =>
          html`<tr><td>${t.name}${t.membersOnly ? ' (members)' : ''}</td><td class="num">${rupees(t.price)}</td><td class="num">${t.taken}</td><td class="num">${t.remaining ?? '∞'}</td><td>${t.soldOut ? 'sold out' : t.onSale ? 'yes' : 'no'}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}
${
  e.tracks.length > 0
    ? html`<h3 id="track-avail-h">Per track</h3><div class="table-wrap"><table class="cards-narrow" aria-labelledby="track-avail-h"><thead><tr><th scope="col">Track</th><th scope="col">When</th><th scope="col" class="num">Capacity</th><th scope="col" class="num">Taken</th><th scope="col" class="num">Left</th><th scope="col" class="num">Waiting</th></tr></thead>
<tbody>${e.tracks.map((t, i) => {
        const a = d.trackAvailability[i];
        return html`<tr><th scope="row" data-label="Track">${trackNumber(t.index)}. ${t.title}</th><td data-label="When">${trackTimes(t)}</td><td class="num" data-label="Capacity">${t.capacity || '∞'}</td><td class="num" data-label="Taken">${a?.taken ?? t.taken}</td><td class="num" data-label="Left">${a ? (a.soldOut ? 'sold out' : (a.remaining ?? '∞')) : '—'}</td><td class="num" data-label="Waiting">${a?.waitlist.waiting ?? 0}</td></tr>`;
      })}</tbody></table></div>`
    : ''
}
</section>`;
}

export function charts(d: OverviewData): Html {
  return html`<section aria-labelledby="charts-h"><h2 id="charts-h">Sales and arrivals</h2>
<div class="grid">${d.salesChart}${d.arrivalsChart}</div>
</section>`;
}

export function embed(d: OverviewData): Html {
  const e = d.event;
  const test = e.mode === 'test';
  // A test event is shown only with a test checkout key pinned to the host page's origin.
  const snippet = test
    ? `<div data-svc-event="${e.slug}" data-svc-key="pk_test_…"></div>\n<script src="${d.baseUrl}/embed.js" async></script>`
    : `<div data-svc-event="${e.slug}"></div>\n<script src="${d.baseUrl}/embed.js" async></script>`;
  return html`<section class="card" aria-labelledby="embed-h"><h2 id="embed-h">Embed on your site</h2>
${
  test
    ? html`<p>Paste this where the booking form should appear. A test event is shown only with a <strong>test checkout key</strong> pinned to your page’s origin:
replace <code>pk_test_…</code> with one (Developers: mode test, kind checkout, allowed origin your site). Payments then go to the sandbox; nothing is charged.</p>`
    : html`<p>Paste this where the booking form should appear.${e.status === 'published' ? '' : html` <span class="muted">It shows the event once the event is published.</span>`}</p>`
}
<pre class="snippet" id="embed-snippet">${snippet}</pre>
<button type="button" class="secondary" data-copy="embed-snippet">Copy snippet</button>
<h3>Preview</h3>
${
  !test && e.status === 'published'
    ? html`<p class="muted">The booking page as your visitors see it (<a href="/e/${encodeURIComponent(e.slug)}">open it on its own</a>). Bookings made here are real.</p>
<iframe class="embed-preview" src="/e/${encodeURIComponent(e.slug)}" title="Preview of the booking page for ${e.title}"></iframe>`
    : d.previewUrl !== null
      ? html`<p class="muted" id="preview-about">${
          test
            ? html`The booking page as buyers will see it, through a preview link that works for 24 hours without a key or a website of your own. Bookings made in it are test bookings: nothing is charged, and their mails appear in the ${d.may.testInbox ? html`<a href="/dashboard/test-inbox">Test inbox</a>` : 'Test inbox'}.`
            : 'The booking page as buyers will see it once the event is published, through a preview link that works for 24 hours. It takes no bookings until the event is published.'
        }</p>
<p><a class="button" id="open-preview" href="${d.previewUrl}" aria-describedby="preview-about">Open the preview</a></p>
<iframe class="embed-preview" src="${d.previewUrl}" title="Preview of the booking page for ${e.title}"></iframe>`
      : html`<p class="embed-preview-note">The preview appears once the event is published: until then the booking page answers “not found”.</p>`
}
</section>`;
}

export function deleteSection(csrf: string, base: string): Html {
  return html`<section class="card" aria-labelledby="danger-h"><h2 id="danger-h">Delete</h2>
<form method="post" action="${base}/delete" data-confirm="Delete this event and all its registrations? This cannot be undone.">${csrfField(csrf)}
<button class="danger">Delete this event</button></form>
</section>`;
}
