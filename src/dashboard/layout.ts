// The frame every dashboard page shares: landmarks, navigation, the mode switch,
// sign-out, and the message left by the previous action.
import type { DashboardFlash, Mode } from '../db/database.js';
import { may, type Membership, type Permission } from '../http/permissions.js';
import { eventSpan, formatSpan } from '../lib/event-time.js';
import { CSS_URL, JS_URL } from './assets.js';
import { html, type Html } from './html.js';

export type Section =
  | 'events'
  | 'seating'
  | 'memberships'
  | 'developers'
  | 'staff'
  | 'money'
  | 'activity'
  | 'test-inbox'
  | 'team'
  | 'door'
  | 'account';

export interface Viewer {
  email: string;
  isStaff: boolean;
  /** Until it is, every page but the verification screen says so and offers the mail again. */
  emailVerified: boolean;
  mode: Mode;
  csrf: string;
  flash: DashboardFlash | null;
  /** The person's role (and events) in the organisation the session works in; undefined: none. */
  member?: Membership | undefined;
  /** The organisations the person belongs to; more than one shows the switch in the header. */
  organisations?: readonly { id: string; name: string; role: string }[];
  /** The organisation the session works in. */
  organisationId?: string;
}

/** What a screen asks before it shows a link or a button: may the viewer's role use it (here, on this event)? */
export type Can = (permission: Permission, eventId?: string) => boolean;

/** Whether the viewer's role may do this (on one event, or the whole organisation): screens hide what it may not. */
export const can = (v: Pick<Viewer, 'member'>, permission: Permission, eventId?: string) =>
  may(v.member, permission, eventId);
/** The same question as a function a view takes. */
export const canOf =
  (v: Pick<Viewer, 'member'>): Can =>
  (permission, eventId) =>
    may(v.member, permission, eventId);

/**
 * The main navigation, each section shown only to roles that may open it
 * (docs/decisions/25-organiser-teams-and-roles.md). Sections still to come take their place here.
 */
const NAV: {
  section: Section;
  label: string;
  href: string;
  staffOnly?: boolean;
  /** What the role needs to see the section; `listing`: the events list, open to limited members too. */
  needs?: Permission;
  listing?: boolean;
}[] = [
  { section: 'events', label: 'Events', href: '/dashboard/events', needs: 'read', listing: true },
  { section: 'door', label: 'Door', href: '/dashboard/door', needs: 'door', listing: true },
  { section: 'seating', label: 'Seating plans', href: '/dashboard/seating-plans', needs: 'read' },
  { section: 'memberships', label: 'Memberships', href: '/dashboard/memberships', needs: 'read' },
  { section: 'money', label: 'Money', href: '/dashboard/money', needs: 'money.read' },
  { section: 'developers', label: 'Developers', href: '/dashboard/developers', needs: 'developers' },
  { section: 'team', label: 'Team', href: '/dashboard/team', needs: 'members.manage' },
  { section: 'activity', label: 'Activity', href: '/dashboard/activity', needs: 'read' },
  { section: 'test-inbox', label: 'Test inbox', href: '/dashboard/test-inbox', needs: 'read' },
  { section: 'account', label: 'Account', href: '/dashboard/account' },
  { section: 'staff', label: 'Staff', href: '/dashboard/staff', staffOnly: true },
];

/** A section the viewer may open: a limited member sees the events list (of their events) but nothing account-wide. */
function shown(v: Viewer, n: (typeof NAV)[number]): boolean {
  if (n.staffOnly) return v.isStaff;
  if (n.needs === undefined) return true;
  if (n.listing && v.member !== undefined && v.member.eventIds !== null)
    return may({ ...v.member, eventIds: null }, n.needs);
  return may(v.member, n.needs);
}

/** The organisation switch, for a person in more than one: POST /dashboard/organisation. */
function organisationSwitch(v: Viewer): Html {
  const orgs = v.organisations ?? [];
  if (orgs.length < 2) return html``;
  return html`<form class="org-switch" method="post" action="/dashboard/organisation">${csrfField(v.csrf)}
<label for="org-switch">Organisation</label>
<select id="org-switch" name="organisationId">${orgs.map(
    (o) =>
      html`<option value="${o.id}"${o.id === v.organisationId ? html` selected` : ''}>${o.name} (${o.role.replace(/_/g, ' ')})</option>`,
  )}</select>
<button class="secondary">Switch</button>
</form>`;
}

export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

function head(title: string): Html {
  return html`<!doctype html>
<html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Ticketing dashboard</title>
<link rel="stylesheet" href="${CSS_URL}"><script src="${JS_URL}" defer></script></head>`;
}

export function flashBox(flash: DashboardFlash | null): Html {
  if (!flash) return html``;
  return html`<div class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">
<p>${flash.text}</p>
${flash.secret !== undefined ? html`<code class="secret-value" id="shown-once">${flash.secret}</code><button type="button" class="secondary" data-copy="shown-once">Copy</button>` : ''}
${flash.progress ? progressBar(flash.progress.done, flash.progress.total, `${flash.progress.done} of ${flash.progress.total} sent${flash.progress.failed > 0 ? `, ${flash.progress.failed} refused` : ''}`) : ''}
</div>`;
}

/** The same "send the mail again" form on every page that offers it: POST /dashboard/verify/resend. */
export function resendForm(csrf: string, label = 'Send the mail again'): Html {
  return html`<form method="post" action="/dashboard/verify/resend">${csrfField(csrf)}<button class="secondary">${label}</button></form>`;
}

/** Shown on every page of an account whose email address is not verified yet. */
function verifyNotice(v: Viewer): Html {
  return html`<aside class="verify-note" aria-labelledby="verify-note-h">
<p><strong id="verify-note-h">Your email address is not verified yet.</strong> Open the link in the mail we sent to <span class="mono">${v.email}</span>.
Until then live keys, live payouts and staff screens stay closed; test mode works fully.</p>
${resendForm(v.csrf)}
</aside>`;
}

export function progressBar(value: number, max: number, label: string): Html {
  return html`<p><progress value="${value}" max="${Math.max(max, 1)}" aria-label="${label}"></progress><br><span>${label}</span></p>`;
}

export function layout(v: Viewer, section: Section, title: string, body: Html): string {
  return html`${head(title)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/dashboard/events">Ticketing</a>
<nav aria-label="Main"><ul>
${NAV.filter((n) => shown(v, n)).map(
  (n) =>
    html`<li><a href="${n.href}"${n.section === section ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
)}
</ul></nav>
<div class="who">
${organisationSwitch(v)}
<form class="mode" method="post" action="/dashboard/mode" aria-label="Mode">${csrfField(v.csrf)}
<span>Mode:</span>
<button name="mode" value="test" aria-pressed="${v.mode === 'test'}">Test</button>
<button name="mode" value="live" aria-pressed="${v.mode === 'live'}">Live</button>
</form>
<span class="mono" title="Signed in">${v.email}</span>
<form method="post" action="/dashboard/logout">${csrfField(v.csrf)}<button>Sign out</button></form>
</div>
</header>
${v.mode === 'test' ? html`<p class="testbar">Test mode: nothing is charged and no mail leaves the service; its mails are in the ${may(v.member, 'read') ? html`<a href="/dashboard/test-inbox">Test inbox</a>` : 'Test inbox'}.</p>` : ''}
<main id="main" tabindex="-1">
<h1>${title}</h1>
${flashBox(v.flash)}
${!v.emailVerified && section !== 'account' ? verifyNotice(v) : ''}
${body}
</main>
</body></html>`.value;
}

/** Sign-in, sign-up and error pages: no navigation. */
export function bare(title: string, body: Html): string {
  return html`${head(title)}
<body><main id="main" class="auth" tabindex="-1">
<p><a class="brand" href="/dashboard">Ticketing dashboard</a></p>
<h1>${title}</h1>
${body}
</main></body></html>`.value;
}

export function tabs(items: { label: string; href: string; current: boolean }[], label: string): Html {
  return html`<nav aria-label="${label}"><ul class="tabs">${items.map(
    (t) => html`<li><a href="${t.href}"${t.current ? html` aria-current="page"` : ''}>${t.label}</a></li>`,
  )}</ul></nav>`;
}

export const badge = (word: string) => html`<span class="badge ${word}">${word.replace(/_/g, ' ')}</span>`;

const IST = 'Asia/Kolkata';
// One formatter each, made once: toLocaleString with options makes a new one every call, and a
// page of 50 rows calls these hundreds of times.
const WHEN = new Intl.DateTimeFormat('en-IN', {
  timeZone: IST,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const WHOLE_RUPEES = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const RUPEES_AND_PAISE = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function when(d: Date | string | null | undefined): string {
  if (d === null || d === undefined) return '—';
  const date = typeof d === 'string' ? new Date(d) : d;
  if (Number.isNaN(date.getTime())) return String(d);
  return WHEN.format(date);
}

/**
 * An event's or a session's time in words, by the one formatter buyers see too ("Sun 20 Dec
 * 2026", "Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST"): a bare day stays a day, never midnight UTC.
 */
export function eventWhen(start: string | null, end: string | null = null): string {
  return formatSpan(eventSpan(start, end, IST), IST) ?? '—';
}

export function rupees(amount: number): string {
  return `₹${(amount % 1 === 0 ? WHOLE_RUPEES : RUPEES_AND_PAISE).format(amount)}`;
}
