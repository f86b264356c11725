// A scan at a track's or a day's door (docs/decisions/28-a-persons-day.md): the booking's own refusals first
// (checkin.service's rules), then whether its session is the list's; admitted once per list.
import { appError } from '../../lib/errors.js';
import type { KeyPrincipal } from '../../http/auth.js';
import * as checkin from './checkin.service.js';
import type { CheckinDeps, Scan, ScanAnswer } from './checkin.service.js';
import * as repo from './checkin.repo.js';
import { ADMITTED_STATUS } from './entry-rule.js';
import {
  listKey,
  sessionText,
  validOn,
  wrongSessionMessage,
  type DoorList,
  type ListEvent,
} from './door-list.js';

type ScopedList = Exclude<DoorList, { kind: 'event' }>;

/** A track's or a day's list, with the event facts its rule needs. */
export interface OnList {
  list: ScopedList;
  event: ListEvent;
}

/**
 * A scan at a track's or a day's door: the booking's own refusals first, then whether its
 * session is this list's (`wrong_session`, naming the session it is valid for); admitted once
 * per list. Decided by the database, one statement per scan (the whole event's door keeps the
 * grouped admits and the in-memory roster).
 */
export async function scanOnList(
  deps: CheckinDeps,
  p: KeyPrincipal,
  eventId: string,
  on: OnList,
  input: {
    value: string;
    memberIndex?: number | undefined;
    undo?: boolean | undefined;
    actor?: string | undefined;
  },
): Promise<ScanAnswer> {
  const value = checkin.parseQrValue(input.value);
  const now = deps.clock.now();
  const actor = input.actor ?? checkin.actorOf(p);
  const key = listKey(on.list);
  const rows = (await repo.lookupRows(deps.db, value)).rows;
  await checkin.assertEventForScan(deps.db, p, eventId, rows[0]);
  const found: Scan =
    rows.length > 0 ? checkin.toScan(rows) : await checkin.resolveByCode(deps.db, eventId, value);
  checkin.applyMemberIndex(found, input.memberIndex);
  await readAdmissions(deps, eventId, key, found);
  const reason = checkin.refusal(found);
  if (reason !== undefined && !(input.undo && reason !== 'transferred')) throw checkin.refuse(found, reason);
  if (!input.undo) assertSessionOnList(deps, on, found);
  const indexes = found.only === undefined ? found.people.map((x) => x.idx) : [found.only];
  const at = input.undo ? null : now;
  const changed = new Set(
    await repo.setPeopleOnList(deps.db, {
      eventId,
      list: key,
      registrationId: found.booking.id,
      indexes,
      at,
      actor,
      now,
    }),
  );
  for (const person of found.people)
    if (changed.has(person.idx))
      Object.assign(person, { checked_in_at: at, checked_in_by: at === null ? null : actor });
  if (!input.undo && changed.size === 0 && !checkin.status(found).checkedIn) {
    // Nobody changed and not everyone named is in: another device's undo came between; read again.
    await readAdmissions(deps, eventId, key, found);
  }
  return {
    changed: changed.size > 0,
    alreadyCheckedIn: !input.undo && changed.size === 0,
    data: checkin.status(found),
  };
}

/** Sets each person's admission on this list (or none) from the database. */
async function readAdmissions(deps: CheckinDeps, eventId: string, key: string, found: Scan): Promise<void> {
  const state = new Map(
    (await repo.listAdmissions(deps.db, eventId, key, found.booking.id)).map((r) => [r.attendee_id, r]),
  );
  for (const person of found.people) {
    const s = state.get(person.id);
    Object.assign(person, {
      checked_in_at: s?.checked_in_at ?? null,
      checked_in_by: s?.checked_in_by ?? null,
    });
  }
}

/** `wrong_session`, naming the session the booking is valid for, when the list does not admit it. */
function assertSessionOnList(deps: CheckinDeps, on: OnList, found: Scan): void {
  if (validOn(on.list, found.booking.sub_event_id, on.event, deps.config.eventTimeZone)) return;
  const session = sessionText(found.booking.sub_event_id, on.event.tracks, deps.config.eventTimeZone);
  throw appError('not_admissible', wrongSessionMessage(session), {
    refusalReason: 'wrong_session',
    session,
    data: checkin.status(found, true),
  });
}

/** A list's arrivals and expected people: confirmed bookings whose session the list admits. */
export async function countsOnList(
  deps: Pick<CheckinDeps, 'db' | 'config'>,
  eventId: string,
  on: OnList,
): Promise<{ arrived: number; expected: number }> {
  let arrived = 0;
  let expected = 0;
  for (const r of await repo.listCounts(deps.db, eventId, listKey(on.list), ADMITTED_STATUS)) {
    if (!validOn(on.list, r.sub_event_id, on.event, deps.config.eventTimeZone)) continue;
    arrived += Number(r.arrived);
    expected += Number(r.expected);
  }
  return { arrived, expected };
}
