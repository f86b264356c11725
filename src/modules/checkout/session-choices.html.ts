// The sessions (tracks) on the hosted page: a radio each, and for an event seated track by track
// (docs/decisions/23-reserved-seating.md, "Tracks with plans") the step before its seat map: a
// plain GET form that opens the page again with the chosen session (`subEventId`), whose map the
// page then draws. It needs no script, and the keyboard moves and chooses as in any radio group.
import { escapeHtml as h } from '../../lib/html.js';
import { formatSpan } from '../../lib/event-time.js';
import type { Session } from '../events/events.service.js';
import type { pageFacts } from './checkout.service.js';
import { money } from './layout.html.js';
import type { Strings } from './strings.js';

type Shown = Awaited<ReturnType<typeof pageFacts>>['shown'];

export function availabilityNote(s: Strings, remaining: number | null, soldOut: boolean): string {
  if (soldOut) return s.soldOut;
  if (remaining !== null && remaining <= 20) return s.left(remaining);
  return '';
}

/** The slot where the page script shows a field's error, referenced by aria-describedby while shown. */
export const errorSlot = (id: string) => `<p class="field-error" id="${id}-error" hidden></p>`;

export function option(
  name: string,
  value: string,
  label: string,
  price: string,
  note: string,
  opts: { checked?: boolean; disabled?: boolean; membersOnly?: boolean; required?: boolean; id: string },
): string {
  return `<div class="option">
<input type="radio" name="${name}" id="${opts.id}" value="${h(value)}"${opts.checked ? ' checked' : ''}${opts.disabled ? ' disabled' : ''}${opts.required ? ' required' : ''}${opts.membersOnly ? ' data-members-only' : ''}>
<label for="${opts.id}"><span class="option-name">${h(label)}</span> <span class="option-price">${h(price)}</span>${note ? ` <span class="option-note">${h(note)}</span>` : ''}</label>
</div>`;
}

/**
 * Sessions: nothing is chosen for the buyer (a free "whole event" must not win by default over a
 * paid track); the whole event is an option only where the organiser sells it. Seated track by
 * track (`seated`), a session shows no price of its own (its seats' categories have the prices,
 * in the map's legend), and once chosen (`only`) it is the one session listed, checked.
 */
export function sessionChoices(
  s: Strings,
  shown: Shown,
  sessions: Session[],
  timeZone: string,
  seated: { only?: number | undefined; required?: boolean } | undefined = undefined,
): string {
  if (shown.tracks.length === 0) return '';
  const only = seated?.only;
  const eventSoldOut = shown.remaining === 0;
  const rows = [
    ...(shown.wholeEventOption && !seated
      ? [
          option(
            'subEventId',
            '',
            s.wholeEvent,
            money(s, shown.price),
            availabilityNote(s, shown.remaining, eventSoldOut),
            { id: 'session-none', disabled: eventSoldOut },
          ),
        ]
      : []),
    ...shown.tracks
      .filter((t) => only === undefined || t.index === only)
      .map((t) =>
        option(
          'subEventId',
          String(t.index),
          t.title,
          seated ? '' : money(s, t.price),
          [
            formatSpan(sessions[t.index]!.span, timeZone) ?? '',
            availabilityNote(s, t.remaining, t.remaining === 0),
          ]
            .filter((x) => x)
            .join(' · '),
          {
            id: `session-${t.index}`,
            disabled: t.remaining === 0,
            checked: only !== undefined,
            required: seated?.required === true,
          },
        ),
      ),
  ];
  return `<fieldset class="choices" id="session" role="radiogroup" aria-describedby="session-error"><legend>${h(s.session)}</legend>${rows.join('\n')}${errorSlot('session')}</fieldset>`;
}

/** Where the page was opened from, carried into the page it opens next. */
export interface PageAccess {
  slug: string;
  key: string | null;
  origin: string | null;
  embed: string;
  preview?: { token: string } | undefined;
}

const hidden = (name: string, value: string | null | undefined) =>
  value ? `<input type="hidden" name="${name}" value="${h(value)}">` : '';

/**
 * An event seated track by track, before a session is chosen: its sessions, and a button that
 * opens the page again on the chosen one (`?subEventId=`), with the same key, origin, embedding
 * and preview, to draw that session's seats.
 */
export function sessionPicker(
  s: Strings,
  shown: Shown,
  sessions: Session[],
  timeZone: string,
  a: PageAccess,
) {
  return `<form id="session-pick" method="get" action="/e/${h(encodeURIComponent(a.slug))}">
${hidden('key', a.key)}${hidden('origin', a.origin)}${hidden('preview', a.preview?.token)}${a.embed === 'none' ? '' : hidden('embed', a.embed)}
<p class="hint" id="session-pick-hint">${h(s.sessionSeatsHint)}</p>
${sessionChoices(s, shown, sessions, timeZone, { required: true })}
<button type="submit" id="session-seats">${h(s.showSessionSeats)}</button>
</form>`;
}

/** The link back to the sessions from a session's seat map (the same page, no session chosen). */
export function otherSessionLink(s: Strings, a: PageAccess): string {
  const q = new URLSearchParams();
  if (a.key) q.set('key', a.key);
  if (a.origin) q.set('origin', a.origin);
  if (a.preview) q.set('preview', a.preview.token);
  if (a.embed !== 'none') q.set('embed', a.embed);
  const query = q.toString();
  return `<p><a id="other-session" href="/e/${h(encodeURIComponent(a.slug))}${query ? `?${h(query)}` : ''}">${h(s.otherSession)}</a></p>`;
}
