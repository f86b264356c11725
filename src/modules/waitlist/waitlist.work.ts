// The waitlist's background work: offer mails, each offer's lapse at its expiry, and a sweep
// every minute as the safety net.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { lapseAll, lapseDue } from './offers.js';
import { lapseJob, offerMailJob, sendOfferMail } from './waitlist.jobs.js';

export function waitlistWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
  mailer: Mailer;
}): ModuleWork {
  const { db, clock, ids, config, mailer } = deps;
  return {
    jobs: [
      onJob(offerMailJob, (payload) => sendOfferMail({ db, clock, config, mailer }, payload)),
      onJob(lapseJob, async (payload) => {
        await lapseDue({ db, clock, ids }, payload.eventId);
      }),
    ],
    maintenance: [
      { name: 'lapse waitlist offers', everyMs: 60_000, run: () => lapseAll({ db, clock, ids }) },
    ],
  };
}
