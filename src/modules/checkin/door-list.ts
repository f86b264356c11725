// Check-in lists (docs/decisions/28-a-persons-day.md): a door admits for the whole event, one track (session), or
// one day. A booking is admitted once per list; a ticket of another session is refused with
// `wrong_session`, naming the session it is valid for. Pure: the service, the roster and the
// sync all ask these functions.
import type { TrackDoc } from '../../db/database.js';
import { dayIn, eventSpan, formatDay, formatSpan, nextDay, type EventSpan } from '../../lib/event-time.js';

/** What a door admits for. */
export type DoorList =
  | { kind: 'event' }
  | { kind: 'track'; trackIndex: number }
  | { kind: 'date'; date: string };

export const WHOLE_EVENT: DoorList = { kind: 'event' };

/** The API's `scope` (absent or null: the whole event). */
export type DoorScope = { trackIndex: number } | { date: string } | null;

export function listOfScope(scope: DoorScope | undefined): DoorList {
  if (!scope) return WHOLE_EVENT;
  return 'trackIndex' in scope
    ? { kind: 'track', trackIndex: scope.trackIndex }
    : { kind: 'date', date: scope.date };
}

export function scopeOfList(list: DoorList): DoorScope {
  return list.kind === 'event'
    ? null
    : list.kind === 'track'
      ? { trackIndex: list.trackIndex }
      : { date: list.date };
}

/** The stored form of a scoped list: `track:<index>` or `date:<YYYY-MM-DD>`; the whole event keeps its admissions on the people themselves. */
export function listKey(list: Exclude<DoorList, { kind: 'event' }>): string {
  return list.kind === 'track' ? `track:${list.trackIndex}` : `date:${list.date}`;
}

export const isScoped = (list: DoorList): list is Exclude<DoorList, { kind: 'event' }> =>
  list.kind !== 'event';

/** A track's start and end as stored: `startsAt`/`endsAt` where a track has them, else `date`/`endDate`. */
function trackTimes(track: TrackDoc): { start: string | null; end: string | null } {
  const t = track as TrackDoc & { startsAt?: string | null; endsAt?: string | null };
  return { start: t.startsAt ?? t.date ?? null, end: t.startsAt ? (t.endsAt ?? null) : (t.endDate ?? null) };
}

export function trackSpan(track: TrackDoc, timeZone: string): EventSpan {
  const { start, end } = trackTimes(track);
  return eventSpan(start, end, timeZone);
}

/** The calendar days (`YYYY-MM-DD`, in the event's time zone) a span covers, first and last; undefined when it says no date. */
function daysOf(span: EventSpan, timeZone: string): { first: string; last: string } | undefined {
  if (span.kind === 'none') return undefined;
  if (span.kind === 'days') return { first: span.first, last: span.last };
  return { first: dayIn(span.start, timeZone), last: dayIn(span.end ?? span.start, timeZone) };
}

export interface ListEvent {
  tracks: readonly TrackDoc[];
  startDate: string | null;
  endDate: string | null;
}

/**
 * Whether a booking (of track `subEventId`, or of the whole event when null) may enter at a
 * list. A whole-event ticket is valid at every list (each day, each session). A track's ticket
 * is valid at its own track's list, and at a day list of a day its track runs on; a track that
 * says no date takes the event's days, and with none known it is not refused.
 */
export function validOn(
  list: DoorList,
  subEventId: number | null,
  event: ListEvent,
  timeZone: string,
): boolean {
  if (list.kind === 'event' || subEventId === null) return true;
  if (list.kind === 'track') return subEventId === list.trackIndex;
  const track = event.tracks[subEventId];
  let days = track ? daysOf(trackSpan(track, timeZone), timeZone) : undefined;
  days ??= daysOf(eventSpan(event.startDate, event.endDate, timeZone), timeZone);
  return days === undefined || (list.date >= days.first && list.date <= days.last);
}

/** The session a booking is valid for, as people read it: "Day 2 · Mon 21 Dec 2026, 6:30 – 9:00 pm IST"; null for the whole event. */
export function sessionText(
  subEventId: number | null,
  tracks: readonly TrackDoc[],
  timeZone: string,
): string | null {
  if (subEventId === null) return null;
  const track = tracks[subEventId];
  if (!track) return `Session ${subEventId + 1}`;
  const when = formatSpan(trackSpan(track, timeZone), timeZone);
  return when ? `${track.title} · ${when}` : track.title;
}

/** At most this many day lists are offered for one event (a festival of a month, not a year). */
const MAX_DAY_CHOICES = 31;

/** A list an organiser may pick for a door link, as a form value (`event`, `track:<i>`, `date:<day>`) and in words. */
export interface ListChoice {
  value: string;
  label: string;
}

/**
 * The lists a door link may admit for, for the dashboard's picker: the whole event, each track
 * (session), and each calendar day the event or one of its tracks runs on, in order. A single
 * day with no tracks offers only the whole event.
 */
export function listChoices(event: ListEvent, timeZone: string): ListChoice[] {
  const choices: ListChoice[] = [{ value: 'event', label: 'The whole event' }];
  event.tracks.forEach((_, i) =>
    choices.push({
      value: `track:${i}`,
      label: sessionText(i, event.tracks, timeZone) ?? `Session ${i + 1}`,
    }),
  );
  const days = new Set<string>();
  const spans = [
    eventSpan(event.startDate, event.endDate, timeZone),
    ...event.tracks.map((t) => trackSpan(t, timeZone)),
  ];
  for (const span of spans) {
    const range = daysOf(span, timeZone);
    if (!range) continue;
    for (let d = range.first; d <= range.last && days.size < MAX_DAY_CHOICES; d = nextDay(d)) days.add(d);
  }
  if (days.size > 1 || event.tracks.length > 0)
    for (const d of [...days].sort()) choices.push({ value: `date:${d}`, label: formatDay(d) });
  return choices;
}

/** The scope a picker's value names; undefined when it names none (the caller refuses it). */
export function scopeOfChoice(value: string): DoorScope | undefined {
  if (value === 'event' || value === '') return null;
  const track = /^track:(\d{1,3})$/.exec(value);
  if (track) return { trackIndex: Number(track[1]) };
  const date = /^date:(\d{4}-\d{2}-\d{2})$/.exec(value);
  if (date) return { date: date[1]! };
  return undefined;
}

/** What the door screen says it admits for. */
export function listLabel(list: DoorList, tracks: readonly TrackDoc[], timeZone: string): string {
  if (list.kind === 'event') return 'Whole event';
  if (list.kind === 'date') return formatDay(list.date);
  return sessionText(list.trackIndex, tracks, timeZone) ?? `Session ${list.trackIndex + 1}`;
}

export function wrongSessionMessage(session: string | null): string {
  return session ? `this ticket is for another session: ${session}` : 'this ticket is for another session';
}
