// Memberships, developers (keys, webhook, deliveries) and staff screens.
import type { KeyRow } from '../../modules/keys/keys.service.js';
import type { presentMembership } from '../../modules/memberships/memberships.service.js';
import type { presentPlan } from '../../modules/memberships/plans.service.js';
import type { listDeliveries, getConfig } from '../../modules/webhooks/webhooks.service.js';
import { html, type Html } from '../html.js';
import { badge, type Can, csrfField, rupees, when } from '../layout.js';
import { membersDownload } from './exports.js';

type PlanView = ReturnType<typeof presentPlan>;
type MemberView = ReturnType<typeof presentMembership>;
type Deliveries = Awaited<ReturnType<typeof listDeliveries>>;
type WebhookConfig = Awaited<ReturnType<typeof getConfig>>;

export function membershipsPage(
  csrf: string,
  plans: PlanView[],
  members: MemberView[],
  filter: { planId: string; email: string },
  can: Can = () => true,
): Html {
  const planName = new Map(plans.map((p) => [p.id, p.name]));
  return html`<section aria-labelledby="plans-h"><h2 id="plans-h">Plans</h2>
${
  plans.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Plan</th><th scope="col">Kind</th><th scope="col" class="num">Amount</th><th scope="col">Id</th></tr></thead>
<tbody>${plans.map(
        (p) =>
          html`<tr><td>${p.name}</td><td>${p.kind === 'fixed_term' ? `${p.termMonths} months` : `recurring, ${p.period}`}</td><td class="num">${rupees(p.amount)}</td><td class="mono">${p.id}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No plans in this mode yet.</p>`
}
${can('memberships.manage') ? newMembershipPlanForm(csrf) : ''}
</section>

<section aria-labelledby="members-h"><h2 id="members-h">Members</h2>
<form method="get" action="/dashboard/memberships" class="card" role="search">
<div class="row"><div><label for="m-plan">Plan</label><select id="m-plan" name="planId"><option value="">every plan</option>${plans.map(
    (p) => html`<option value="${p.id}"${filter.planId === p.id ? html` selected` : ''}>${p.name}</option>`,
  )}</select></div>
<div><label for="m-email">Email</label><input id="m-email" name="email" type="search" maxlength="254" value="${filter.email}"></div>
<div class="fit"><button>Show</button></div></div></form>
${can('exports') ? membersDownload(filter.planId) : ''}
${
  members.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Plan</th><th scope="col">Standing</th><th scope="col">Valid until</th><th scope="col">Source</th></tr></thead>
<tbody>${members.map(
        (
          m,
        ) => html`<tr><td>${m.name}</td><td>${m.email}</td><td>${planName.get(m.planId) ?? m.planId}</td><td>${badge(m.displayStatus)} ${m.goodStanding ? 'in good standing' : 'not in good standing'}</td>
<td>${when(m.validUntil)}</td><td>${m.source}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No members${filter.email || filter.planId ? ' match' : ' yet'}.</p>`
}
</section>`;
}

export function developersPage(
  csrf: string,
  mode: string,
  keys: KeyRow[],
  webhook: WebhookConfig,
  deliveries: Deliveries,
  emailVerified: boolean,
): Html {
  return html`<section aria-labelledby="keys-h"><h2 id="keys-h">API keys</h2>
<p class="muted">A key is shown once, when it is created; only its first characters are kept to recognise it.</p>
${
  keys.length > 0
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Kind</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>${keys.map(
        (
          k,
        ) => html`<tr><td>${k.name}</td><td class="mono">${k.prefix}…</td><td>${k.mode} ${k.class}${k.allowed_origin ? html`<br><span class="muted">${k.allowed_origin}</span>` : ''}</td>
<td>${when(k.created_at)}</td><td>${k.last_used_at ? when(k.last_used_at) : 'never'}</td>
<td>${
          k.revoked_at
            ? badge('revoked')
            : html`<form method="post" action="/dashboard/developers/keys/${encodeURIComponent(k.id)}/revoke" data-confirm="Revoke ${k.name}? Calls with it are refused at once.">${csrfField(csrf)}<button class="secondary" aria-label="Revoke ${k.name} (${k.prefix}…)">Revoke</button></form>`
        }</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No keys yet.</p>`
}
<form method="post" action="/dashboard/developers/keys" class="card">${csrfField(csrf)}
<h3>Create a key</h3>
<div class="row"><div><label for="k-name">Name <span class="hint">optional</span></label><input id="k-name" name="name" maxlength="100"></div>
<div><label for="k-mode">Mode${emailVerified ? '' : html` <span class="hint">live keys need a verified email address</span>`}</label><select id="k-mode" name="mode"><option value="test"${mode === 'test' ? html` selected` : ''}>test</option><option value="live"${mode === 'live' ? html` selected` : ''}>live</option></select></div>
<div><label for="k-class">Kind</label><select id="k-class" name="class"><option value="full">full (sk_, for your server)</option><option value="checkout">checkout (pk_, for web pages)</option></select></div></div>
<label for="k-origin">Allowed origin <span class="hint">checkout keys only, e.g. https://shop.example.in</span></label><input id="k-origin" name="allowedOrigin" maxlength="300" inputmode="url">
<p><button>Create key</button></p></form>
</section>

<section aria-labelledby="wh-h"><h2 id="wh-h">Webhook (${mode} mode)</h2>
<form method="post" action="/dashboard/developers/webhook" class="card">${csrfField(csrf)}
<label for="w-url">Endpoint URL</label><input id="w-url" name="url" type="url" maxlength="2000" required value="${webhook?.url ?? ''}" placeholder="https://example.in/hooks/tickets">
<fieldset><legend>Send</legend>
${(['registration.confirmed', 'subscription.authenticated'] as const).map(
  (t) =>
    html`<label class="inline"><input type="checkbox" name="events" value="${t}"${(webhook?.events ?? ['registration.confirmed']).includes(t) ? html` checked` : ''}> ${t}</label>`,
)}</fieldset>
<label class="inline"><input type="checkbox" name="enabled" value="on"${webhook === null || webhook.enabled ? html` checked` : ''}> Enabled</label>
<p><button>${webhook ? 'Save webhook' : 'Set up webhook'}</button></p></form>
${
  webhook
    ? html`<div class="actions"><form method="post" action="/dashboard/developers/webhook/rotate" data-confirm="Make a new signing secret? The old one stops verifying at once.">${csrfField(csrf)}<button class="secondary">Rotate signing secret</button></form>
<form method="post" action="/dashboard/developers/webhook/delete" data-confirm="Remove the webhook and its secret?">${csrfField(csrf)}<button class="secondary">Remove webhook</button></form></div>`
    : ''
}
<h3>Delivery log</h3>
${
  deliveries.length > 0
    ? html`<div class="table-wrap"><table><caption class="muted">The last 100 attempts, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Result</th><th scope="col" class="num">Time</th></tr></thead>
<tbody>${deliveries.map(
        (d) =>
          html`<tr><td>${when(d.createdAt)}</td><td>${d.type}</td><td>${d.ok ? badge('ok') : badge('failed')} ${d.statusCode ?? ''} ${d.error ?? ''}</td><td class="num">${d.durationMs} ms</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No deliveries yet.</p>`
}
</section>`;
}

export function staffPage(csrf: string): Html {
  return html`<section class="card" aria-labelledby="oa-h"><h2 id="oa-h">Organiser access</h2>
<form method="post" action="/dashboard/staff/organiser-access">${csrfField(csrf)}
<label for="oa-email">Account email or user id</label><input id="oa-email" name="account" required maxlength="254">
<fieldset><legend>Publishing</legend>
<label class="inline"><input type="radio" name="canPublish" value="true" checked> Allow</label>
<label class="inline"><input type="radio" name="canPublish" value="false"> Remove</label></fieldset>
<p><button>Save organiser access</button></p></form></section>

<section class="card" aria-labelledby="te-h"><h2 id="te-h">Ticket emails</h2>
<form method="post" action="/dashboard/staff/ticket-emails">${csrfField(csrf)}
<label for="te-event">Event id</label><input id="te-event" name="eventId" required maxlength="100">
<fieldset><legend>The service’s own ticket email</legend>
<label class="inline"><input type="radio" name="enabled" value="true" checked> On</label>
<label class="inline"><input type="radio" name="enabled" value="false"> Off</label></fieldset>
<p><button>Switch ticket emails</button></p></form></section>

<section class="card" aria-labelledby="mm-h"><h2 id="mm-h">Add a member by hand</h2>
<form method="post" action="/dashboard/staff/members">${csrfField(csrf)}
<div class="row"><div><label for="mm-plan">Plan id</label><input id="mm-plan" name="planId" required maxlength="100"></div>
<div><label for="mm-until">Valid until</label><input id="mm-until" name="validUntil" type="date" required></div></div>
<div class="row"><div><label for="mm-name">Name</label><input id="mm-name" name="name" required maxlength="200"></div>
<div><label for="mm-email">Email</label><input id="mm-email" name="email" type="email" required maxlength="254"></div></div>
<p><button>Add member</button></p></form></section>`;
}

function newMembershipPlanForm(csrf: string): Html {
  return html`<details class="card"><summary>Create a plan</summary>
<form method="post" action="/dashboard/memberships/plans">${csrfField(csrf)}
<div class="row"><div><label for="pl-name">Name</label><input id="pl-name" name="name" required maxlength="80"></div>
<div><label for="pl-amount">Amount (₹)</label><input id="pl-amount" name="amount" type="number" min="1" step="0.01" required></div></div>
<fieldset><legend>Kind</legend>
<label class="inline"><input type="radio" name="kind" value="fixed_term" checked> Fixed term, paid once</label>
<label class="inline"><input type="radio" name="kind" value="recurring"> Recurring mandate</label></fieldset>
<div class="row"><div><label for="pl-term">Term in months <span class="hint">fixed term</span></label><input id="pl-term" name="termMonths" type="number" min="1" max="120" value="12"></div>
<div><label for="pl-period">Period <span class="hint">recurring</span></label><select id="pl-period" name="period"><option>monthly</option><option>quarterly</option><option>yearly</option><option>weekly</option></select></div></div>
<label for="pl-desc">Description <span class="hint">optional</span></label><textarea id="pl-desc" name="description" maxlength="500"></textarea>
<p><button>Create plan</button></p></form></details>`;
}
