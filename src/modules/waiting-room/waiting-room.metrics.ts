// The waiting room's metrics on /metrics: joins, admissions, and each event's queue as this
// instance last saw it.
import { Counter, Gauge, type Registry } from 'prom-client';

export interface RoomMetrics {
  joined(): void;
  admitted(): void;
  queue(eventId: string, waiting: number, admitted: number): void;
}

export function roomMetrics(registry: Registry): RoomMetrics {
  const joins = new Counter({
    name: 'waiting_room_joins_total',
    help: 'New places taken in waiting rooms',
    registers: [registry],
  });
  const admissions = new Counter({
    name: 'waiting_room_admitted_total',
    help: 'Places admitted (counted once, by the instance that first answered the place as admitted)',
    registers: [registry],
  });
  const length = new Gauge({
    name: 'waiting_room_queue_length',
    help: 'Buyers still waiting in an event’s queue, as this instance last saw it',
    labelNames: ['event_id'],
    registers: [registry],
  });
  const head = new Gauge({
    name: 'waiting_room_admitted',
    help: 'Places admitted so far in an event’s queue, as this instance last saw it',
    labelNames: ['event_id'],
    registers: [registry],
  });
  return {
    joined: () => joins.inc(),
    admitted: () => admissions.inc(),
    queue(eventId, waiting, admitted) {
      length.set({ event_id: eventId }, waiting);
      head.set({ event_id: eventId }, admitted);
    },
  };
}
