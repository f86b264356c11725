// What the event operations share: their path parameters, the answer with one event, and the
// event as they answer it (with its seat usage).
import { Type } from 'typebox';
import { presentEvent } from '../events.present.js';
import * as events from '../events.service.js';
import { Event } from '../event-answers.schemas.js';
import type { EventDeps } from '../events.deps.js';

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }) });
export const TrackParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  index: Type.String({ maxLength: 10, description: 'Zero-based track index' }),
});
export const EventAnswer = Type.Object({ success: Type.Literal(true), data: Event });
export const ownershipErrors = { 404: Type.Ref('Error') };

/** The event as the operations answer it, with its seats taken. */
export const present = async (deps: EventDeps, row: events.EventRow) =>
  presentEvent(row, await events.usageFor(deps.db, row.id));
