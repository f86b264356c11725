// Working days for clearing and payout estimates: Monday to Friday in India time
// (UTC+05:30, no daylight saving). Public holidays are not modelled. Pure.

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

/** Day of the week in India time: 0 Sunday … 6 Saturday. */
export function istWeekday(at: Date): number {
  return new Date(at.getTime() + IST_OFFSET_MS).getUTCDay();
}

function isWorkingDay(at: Date): boolean {
  const d = istWeekday(at);
  return d !== 0 && d !== 6;
}

/** Midnight (India time) that starts the day of `at`. */
function istMidnight(at: Date): Date {
  const local = at.getTime() + IST_OFFSET_MS;
  return new Date(local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - IST_OFFSET_MS);
}

/**
 * The instant `days` working days after `from`, at the same time of day. A start on a
 * Saturday or Sunday counts from the next Monday at 00:00 India time. 0 days is `from`.
 */
export function addWorkingDays(from: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be a whole number, 0 or more');
  if (days === 0) return from;
  let t = from;
  while (!isWorkingDay(t)) t = new Date(istMidnight(t).getTime() + DAY_MS);
  let counted = 0;
  while (counted < days) {
    t = new Date(t.getTime() + DAY_MS);
    if (isWorkingDay(t)) counted++;
  }
  return t;
}

/**
 * The latest capture instant whose money has cleared by `now`: a capture at `t` is
 * available once `addWorkingDays(t, days) <= now`, and that holds exactly for
 * `t <= clearedUpTo(now, days)` (addWorkingDays never decreases as `t` grows), so SQL
 * can compare `captured_at` with one parameter. Found by bisection, to the millisecond.
 */
export function clearedUpTo(now: Date, days: number): Date {
  if (days === 0) return now;
  // days working days span at most days + 2 * (days / 5 + 1) + 2 calendar days.
  let lo = now.getTime() - (days * 2 + 6) * DAY_MS; // clears by now
  // Stryker disable next-line ArithmeticOperator: with days > 0 neither now + 1 ms nor now - 1 ms clears by now, so both bound the search alike.
  let hi = now.getTime() + 1; // does not (days > 0)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (addWorkingDays(new Date(mid), days).getTime() <= now.getTime()) lo = mid;
    else hi = mid;
  }
  return new Date(lo);
}
