// The broadcasts' background work: one mail per recipient.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Mailer } from '../mail/mailer.js';
import { broadcastMailJob, sendBroadcastMail } from './broadcast.service.js';

export function broadcastWork(deps: { db: Kysely<Database>; clock: Clock; mailer: Mailer }): ModuleWork {
  return { jobs: [onJob(broadcastMailJob, (payload) => sendBroadcastMail(deps, payload))] };
}
