// Registrations: reading and counting. (Registering and paying arrive with the
// payment flow; they will share `seatUsage` with availability.)
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import * as repo from './registrations.repo.js';

export interface EventCounts {
  total: number;
  confirmed: number;
  pending: number;
  cancelled: number;
  refunded: number;
  checkedIn: number;
  revenuePaise: number;
}

export async function eventCounts(db: Kysely<Database>, eventId: string): Promise<EventCounts> {
  const out: EventCounts = { total: 0, confirmed: 0, pending: 0, cancelled: 0, refunded: 0, checkedIn: 0, revenuePaise: 0 };
  for (const r of await repo.statusCounts(db, eventId)) {
    out.total += r.n;
    out[r.status] += r.n;
    if (r.status === 'confirmed') {
      out.checkedIn += r.checkedIn;
      out.revenuePaise += r.amountPaise;
    }
  }
  return out;
}

export const listRegistrations = repo.listByEvent;
export type { RegistrationSearch } from './registrations.repo.js';
/** One page of an event's registrations, newest first, optionally searched and filtered. */
export const searchRegistrations = repo.searchByEvent;
/** For the dashboard's charts and door progress. */
export const salesOverTime = repo.salesByDay;
export const arrivalsPer15Minutes = repo.arrivalsBySlot;
export const doorProgress = repo.doorCounts;
export const hasPaidUnrefunded = repo.hasPaidUnrefunded;
export const insertRegistration = repo.insertRegistration;

export async function attendeesOf(db: Kysely<Database>, registrationIds: readonly string[]) {
  if (registrationIds.length === 0) return new Map<string, { id: string; idx: number; name: string; email: string; checked_in_at: Date | null }[]>();
  const rows = await db.selectFrom('attendees').selectAll().where('registration_id', 'in', registrationIds).orderBy('idx').execute();
  const out = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = out.get(r.registration_id) ?? [];
    list.push(r);
    out.set(r.registration_id, list);
  }
  return out;
}
