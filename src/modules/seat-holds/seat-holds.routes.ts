// Seats of seated events: their statuses, holding them, letting go, house seats and moving a booking. One operation per file under routes/.
import { routes } from '../../http/operation.js';
import { blockHouseSeatsRoute } from './routes/block-house-seats.js';
import { getSeatStatuses } from './routes/get-seat-statuses.js';
import { holdSeatsRoute } from './routes/hold-seats.js';
import { listEventSeats } from './routes/list-event-seats.js';
import { moveBookingSeatsRoute } from './routes/move-booking-seats.js';
import { releaseHouseSeatsRoute } from './routes/release-house-seats.js';
import { releaseSeatHold } from './routes/release-seat-hold.js';
import type { SeatHoldsDeps } from './seat-holds.deps.js';

export const seatHoldsRoutes = routes<SeatHoldsDeps>([
  listEventSeats,
  getSeatStatuses,
  holdSeatsRoute,
  releaseSeatHold,
  blockHouseSeatsRoute,
  releaseHouseSeatsRoute,
  moveBookingSeatsRoute,
]);
