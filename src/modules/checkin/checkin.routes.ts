// The API's check-in: look a ticket up, admit it (or undo). One operation per file under routes/.
import { routes } from '../../http/operation.js';
import type { CheckinDeps } from './checkin.service.js';
import { checkIn } from './routes/check-in.js';
import { lookUpTicket } from './routes/look-up-ticket.js';

export const checkinRoutes = routes<CheckinDeps>([lookUpTicket, checkIn]);
