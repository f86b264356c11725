// The events API, one operation per file under routes/.
import { routes } from '../../http/operation.js';
import type { EventDeps } from './events.deps.js';
import { createEvent } from './routes/create-event.js';
import { createTrack } from './routes/create-track.js';
import { deleteEvent } from './routes/delete-event.js';
import { getAnalytics } from './routes/get-analytics.js';
import { getAvailability } from './routes/get-availability.js';
import { getEvent } from './routes/get-event.js';
import { listEvents } from './routes/list-events.js';
import { listTracks } from './routes/list-tracks.js';
import { removeTrack } from './routes/remove-track.js';
import { updateEvent } from './routes/update-event.js';
import { updateTrack } from './routes/update-track.js';

export const eventsRoutes = routes<EventDeps>([
  listEvents,
  createEvent,
  getEvent,
  updateEvent,
  deleteEvent,
  listTracks,
  createTrack,
  updateTrack,
  removeTrack,
  getAvailability,
  getAnalytics,
]);
