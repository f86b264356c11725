// Registrations: reading and counting. (Registering and paying arrive with the
// payment flow; they will share `seatUsage` with availability.)
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SeatUsage } from '../events/availability.js';
import * as repo from './registrations.repo.js';

export async function seatUsage(db: Kysely<Database>, eventId: string): Promise<SeatUsage> {
  const rows = await repo.seatRows(db, eventId);
  let total = 0;
  const byTier = new Map<string, number>();
  const byTrack = new Map<number, number>();
  for (const r of rows) {
    const seats = Number(r.seats);
    total += seats;
    byTier.set(r.ticket_type, (byTier.get(r.ticket_type) ?? 0) + seats);
    if (r.sub_event_id !== null) byTrack.set(r.sub_event_id, (byTrack.get(r.sub_event_id) ?? 0) + seats);
  }
  return { total, byTier, byTrack };
}

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
export const hasPaidUnrefunded = repo.hasPaidUnrefunded;
export const insertRegistration = repo.insertRegistration;
