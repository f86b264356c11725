// The Team screen (docs/decisions/25-organiser-teams-and-roles.md): the organisation's members
// with their roles, events and two-factor status, the invitations still open, and the forms
// that invite, change and remove. Only owners and admins reach it; an owner's row offers its
// changes to owners only, as the service decides.
import { html, type Html } from '../html.js';
import { csrfField, when } from '../layout.js';

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
  role: string;
  events: readonly string[] | null;
  joinedAt: string;
  twoFactor?: boolean | undefined;
}
export interface TeamInvitation {
  id: string;
  email: string;
  role: string;
  events: readonly string[] | null;
  expiresAt: string;
}
export interface TeamData {
  csrf: string;
  /** The viewer's own role: only an owner is offered an owner's changes. */
  viewerRole: string;
  viewerId: string;
  members: TeamMember[];
  invitations: TeamInvitation[];
  /** The organisation's events, for the events a member works on. */
  events: { id: string; title: string }[];
}

const ROLE_LABELS: [string, string][] = [
  ['owner', 'Owner: everything'],
  ['admin', 'Admin: everything but payouts and owners'],
  ['finance', 'Finance: money, GST, exports, payouts; reads'],
  ['event_manager', 'Event manager: events and their bookings'],
  ['door', 'Door: admits people at the listed events'],
  ['viewer', 'Viewer: reads only'],
];
const roleWord = (r: string) => r.replace(/_/g, ' ');

function roleSelect(id: string, current: string, viewerRole: string): Html {
  const offered = ROLE_LABELS.filter(([r]) => r !== 'owner' || viewerRole === 'owner');
  return html`<select id="${id}" name="role">${offered.map(
    ([r, label]) => html`<option value="${r}"${r === current ? html` selected` : ''}>${label}</option>`,
  )}</select>`;
}

/** Checkboxes of the organisation's events: optional for an event manager, required for the door. */
function eventChoices(prefix: string, d: TeamData, chosen: readonly string[] | null): Html {
  if (d.events.length === 0) return html`<p class="hint">No events yet.</p>`;
  return html`<fieldset class="events-choice"><legend>Events (event managers: none ticked means all; door: at least one)</legend>
${d.events.map(
  (e, i) =>
    html`<div class="field check"><input type="checkbox" id="${prefix}-ev-${String(i)}" name="events" value="${e.id}"${chosen?.includes(e.id) ? html` checked` : ''}> <label for="${prefix}-ev-${String(i)}">${e.title}</label></div>`,
)}</fieldset>`;
}

function eventNames(d: TeamData, ids: readonly string[] | null): string {
  if (ids === null) return 'All events';
  const titles = new Map(d.events.map((e) => [e.id, e.title]));
  return ids.map((id) => titles.get(id) ?? id).join(', ');
}

function memberRow(d: TeamData, m: TeamMember, i: number): Html {
  const ownerOnly = m.role === 'owner' && d.viewerRole !== 'owner';
  const path = `/dashboard/team/members/${encodeURIComponent(m.userId)}`;
  const changes = ownerOnly
    ? html`<p class="hint">Only an owner changes an owner.</p>`
    : html`<details><summary>Change or remove</summary>
<form method="post" action="${path}">${csrfField(d.csrf)}
<div class="field"><label for="m-${String(i)}-role">Role</label>${roleSelect(`m-${String(i)}-role`, m.role, d.viewerRole)}</div>
${eventChoices(`m-${String(i)}`, d, m.events)}
<button>Save role</button>
</form>
<form method="post" action="${path}/remove">${csrfField(d.csrf)}<button class="danger">${m.userId === d.viewerId ? 'Leave the organisation' : 'Remove from the team'}</button></form>
</details>`;
  return html`<tr>
<th scope="row" data-label="Person">${m.name || m.email}<br><span class="mono">${m.email}</span></th>
<td data-label="Role">${roleWord(m.role)}</td>
<td data-label="Events">${eventNames(d, m.events)}</td>
<td data-label="Two-factor">${m.twoFactor === undefined ? '—' : m.twoFactor ? 'On' : 'Off'}</td>
<td data-label="Joined">${when(m.joinedAt)}</td>
<td data-label="Change">${changes}</td>
</tr>`;
}

function invitations(d: TeamData): Html {
  if (d.invitations.length === 0) return html`<p>No invitations are open.</p>`;
  return html`<div class="table-wrap"><table class="cards-narrow"><caption>Open invitations</caption>
<thead><tr><th scope="col">Address</th><th scope="col">Role</th><th scope="col">Events</th><th scope="col">Expires</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${d.invitations.map(
    (
      inv,
    ) => html`<tr><th scope="row" class="mono" data-label="Address">${inv.email}</th><td data-label="Role">${roleWord(inv.role)}</td><td data-label="Events">${eventNames(d, inv.events)}</td><td data-label="Expires">${when(inv.expiresAt)}</td>
<td data-label="Withdraw"><form method="post" action="/dashboard/team/invitations/${encodeURIComponent(inv.id)}/withdraw">${csrfField(d.csrf)}<button class="secondary">Withdraw</button></form></td></tr>`,
  )}</tbody></table></div>`;
}

export function teamScreen(d: TeamData): Html {
  return html`<section aria-labelledby="members-h">
<h2 id="members-h">Members</h2>
<div class="table-wrap"><table class="cards-narrow"><caption class="sr-only">Members of the organisation</caption>
<thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Events</th><th scope="col">Two-factor</th><th scope="col">Joined</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${d.members.map((m, i) => memberRow(d, m, i))}</tbody></table></div>
</section>
<section aria-labelledby="invite-h" class="card">
<h2 id="invite-h">Invite someone</h2>
<p>The mail carries a link that works for 7 days, once, for that address only.</p>
<form method="post" action="/dashboard/team/invitations">${csrfField(d.csrf)}
<div class="field"><label for="inv-email">Email address</label><input id="inv-email" name="email" type="email" required maxlength="254" autocomplete="off"></div>
<div class="field"><label for="inv-role">Role</label>${roleSelect('inv-role', 'viewer', d.viewerRole)}</div>
${eventChoices('inv', d, null)}
<button>Send the invitation</button>
</form>
</section>
<section aria-labelledby="invitations-h">
<h2 id="invitations-h">Invitations</h2>
${invitations(d)}
</section>`;
}
