// The dashboard's activity screen: the account's audit log in the dashboard's mode, newest
// first, filtered by what it is about.
import type { Mode } from '../../db/database.js';
import type { AuditEntryView } from '../../modules/audit/audit.service.js';
import { html, type Html } from '../html.js';
import { when } from '../layout.js';

const ACTOR: Record<AuditEntryView['actor']['kind'], string> = {
  user: 'Organiser',
  key: 'API key',
  door_pass: 'Door pass',
  staff: 'Staff',
  attendee: 'Attendee',
  system: 'The service',
};

const TARGETS = [
  'event',
  'track',
  'registration',
  'attendee',
  'key',
  'webhook_config',
  'door_pass',
  'plan',
  'membership',
  'payout',
  'broadcast',
  'account',
];

/** A short line of what changed: `status: draft → published`. */
function changeLine(before: unknown, after: unknown): string {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].slice(0, 4);
  const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return keys
    .map((k) =>
      k in b && k in a ? `${k}: ${show(b[k])} → ${show(a[k])}` : `${k}: ${show(k in a ? a[k] : b[k])}`,
    )
    .join('; ');
}

export function activityPage(
  mode: Mode,
  entries: AuditEntryView[],
  filter: { targetType?: string | undefined; targetId?: string | undefined },
  pages: { next: string | null; first: boolean },
): Html {
  const query = (extra: Record<string, string>) =>
    new URLSearchParams({
      ...(filter.targetType ? { targetType: filter.targetType } : {}),
      ...(filter.targetId ? { targetId: filter.targetId } : {}),
      ...extra,
    }).toString();
  const option = (t: string) =>
    html`<option value="${t}"${filter.targetType === t ? html` selected` : html``}>${t.replace('_', ' ')}</option>`;
  return html`<p>Every change made in ${mode} mode by you, your API keys, your door passes, your attendees on their own pages and the platform’s staff, newest first. Entries are never changed or deleted.</p>
<form method="get" action="/dashboard/activity" class="card filters">
<div class="field"><label for="f-type">About</label><select id="f-type" name="targetType"><option value="">Anything</option>${TARGETS.map(option)}</select></div>
<div class="field"><label for="f-id">Id</label><input id="f-id" name="targetId" maxlength="100" value="${filter.targetId ?? ''}"></div>
<button>Filter</button>
</form>
${
  entries.length === 0
    ? html`<p class="muted">Nothing recorded${pages.first ? ' yet' : ' on this page'}.</p>`
    : html`<div class="table-wrap"><table><caption class="muted">Activity (${mode} mode), newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">About</th><th scope="col">Change</th></tr></thead>
<tbody>${entries.map(
        (
          e,
        ) => html`<tr><td data-label="When">${when(e.at)}</td><td data-label="Who">${ACTOR[e.actor.kind]} <span class="mono">${e.actor.display}</span></td>
<td data-label="What">${e.action}</td><td data-label="About">${e.target.type} <a class="mono" href="/dashboard/activity?${query({ targetType: e.target.type, targetId: e.target.id })}">${e.target.id}</a></td>
<td data-label="Change">${changeLine(e.before, e.after)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav class="pager" aria-label="Activity pages">
${pages.first ? '' : html`<a href="/dashboard/activity?${query({})}">Newest</a>`}
${pages.next ? html`<a href="/dashboard/activity?${query({ after: pages.next })}" rel="next">Older</a>` : ''}
</nav>`;
}
