// Seats of seated events: their statuses, holding them, letting go. One operation per file under routes/.
import { routes } from '../../http/operation.js';
import { getSeatStatuses } from './routes/get-seat-statuses.js';
import { holdSeatsRoute } from './routes/hold-seats.js';
import { listEventSeats } from './routes/list-event-seats.js';
import { releaseSeatHold } from './routes/release-seat-hold.js';
import type { SeatHoldsDeps } from './seat-holds.deps.js';

export const seatHoldsRoutes = routes<SeatHoldsDeps>([
  listEventSeats,
  getSeatStatuses,
  holdSeatsRoute,
  releaseSeatHold,
]);
