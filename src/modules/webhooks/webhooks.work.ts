// The webhooks' background work: deliveries, and pruning the old ones hourly.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { serversResolve } from './delivery.js';
import { deliveryJob, pruneDeliveries, webhookDeliveryJob } from './webhooks.service.js';

export function webhooksWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
}): ModuleWork {
  const { db, clock, ids, config } = deps;
  // Webhook hosts resolve through DNS_SERVERS when set, like the email check.
  const resolve = config.dnsServers.length > 0 ? serversResolve(config.dnsServers) : undefined;
  return {
    jobs: [
      onJob(webhookDeliveryJob, (payload) =>
        deliveryJob({ db, clock, ids, config, ...(resolve ? { resolve } : {}) }, payload),
      ),
    ],
    maintenance: [
      { name: 'prune webhook deliveries', everyMs: 3_600_000, run: (now) => pruneDeliveries(db, now) },
    ],
  };
}
