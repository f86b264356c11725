// The door rosters' metrics (rosters.ts): who answered lookups, roster reads by cause, the
// listener's connects, and the rosters and people held.
import { Counter, Gauge, type Registry } from 'prom-client';

export function rosterMetrics(registry: Registry | undefined) {
  const registers = registry ? [registry] : [];
  return {
    lookups: new Counter({
      name: 'door_lookups_total',
      help: 'Door lookups and refusals, by what answered them: the in-memory roster or the database',
      labelNames: ['from'],
      registers,
    }),
    refreshes: new Counter({
      name: 'door_roster_refreshes_total',
      help: 'Roster reads, by cause: build (first scan), change (a notification or this instance’s own write), version (the version check found a missed notification)',
      labelNames: ['cause'],
      registers,
    }),
    connects: new Counter({
      name: 'door_listener_connects_total',
      help: 'Times the door listener connected and ran LISTEN (the first time, and every reconnect)',
      registers,
    }),
    rosters: new Gauge({ name: 'door_rosters', help: 'Door rosters held in memory', registers }),
    people: new Gauge({
      name: 'door_roster_people',
      help: 'People in the door rosters held in memory (at most DOOR_ROSTER_MAX_PEOPLE)',
      registers,
    }),
    dropped: new Counter({
      name: 'door_rosters_dropped_total',
      help: 'Door rosters dropped to keep within DOOR_ROSTER_MAX_PEOPLE',
      registers,
    }),
  };
}
