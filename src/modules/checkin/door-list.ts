// Check-in lists (decisions §28): a door admits for the whole event, one track (session), or
// one day. A booking is admitted once per list; a ticket of another session is refused with
// `wrong_session`, naming the session it is valid for. Pure: the service, the roster and the
// sync all ask these functions.
import type { TrackDoc } from '../../db/database.js';
import { dayIn, eventSpan, formatDay, formatSpan, type EventSpan } from '../../shared/event-time.js';

/** What a door admits for. */
export type DoorList = { kind: 'event' } | { kind: 'track'; trackIndex: number } | { kind: 'date'; date: string };

export const WHOLE_EVENT: DoorList = { kind: 'event' };

/** The API's `scope` (absent or null: the whole event). */
export type DoorScope = { trackIndex: number } | { date: string } | null;

export function listOfScope(scope: DoorScope | undefined): DoorList {
  if (!scope) return WHOLE_EVENT;
  return 'trackIndex' in scope ? { kind: 'track', trackIndex: scope.trackIndex } : { kind: 'date', date: scope.date };
}

export function scopeOfList(list: DoorList): DoorScope {
  return list.kind === 'event' ? null : list.kind === 'track' ? { trackIndex: list.trackIndex } : { date: list.date };
}

/** The stored form of a scoped list: `track:<index>` or `date:<YYYY-MM-DD>`; the whole event keeps its admissions on the people themselves. */
export function listKey(list: Exclude<DoorList, { kind: 'event' }>): string {
  return list.kind === 'track' ? `track:${list.trackIndex}` : `date:${list.date}`;
}

export const isScoped = (list: DoorList): list is Exclude<DoorList, { kind: 'event' }> => list.kind !== 'event';

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
export function validOn(list: DoorList, subEventId: number | null, event: ListEvent, timeZone: string): boolean {
  if (list.kind === 'event' || subEventId === null) return true;
  if (list.kind === 'track') return subEventId === list.trackIndex;
  const track = event.tracks[subEventId];
  let days = track ? daysOf(trackSpan(track, timeZone), timeZone) : undefined;
  days ??= daysOf(eventSpan(event.startDate, event.endDate, timeZone), timeZone);
  return days === undefined || (list.date >= days.first && list.date <= days.last);
}

/** The session a booking is valid for, as people read it: "Day 2 · Mon 21 Dec 2026, 6:30 – 9:00 pm IST"; null for the whole event. */
export function sessionText(subEventId: number | null, tracks: readonly TrackDoc[], timeZone: string): string | null {
  if (subEventId === null) return null;
  const track = tracks[subEventId];
  if (!track) return `Session ${subEventId + 1}`;
  const when = formatSpan(trackSpan(track, timeZone), timeZone);
  return when ? `${track.title} · ${when}` : track.title;
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
