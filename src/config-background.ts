// Background work: the workers, and the monthly partitions of the tables that only grow
// (src/db/partitions.ts, docs/operations/partitions.md): how many months are made ahead and how
// many whole months before the current one each table keeps (0 keeps every month).
import { ConfigError } from './config-error.js';
import { bool, type Env, int } from './config-read.js';
import type { PartitionSettings } from './db/partitions.js';

/** An organiser's books and the records behind them are kept 8 years (Companies Act, s. 128(5)). */
export const AUDIT_MINIMUM_MONTHS = 96;

const kept = (n: number) => (n === 0 ? null : n);

function partitionSettings(env: Env): PartitionSettings {
  const audit = int(env, 'AUDIT_RETENTION_MONTHS', 0, 0, 1200);
  if (audit !== 0 && audit < AUDIT_MINIMUM_MONTHS)
    throw new ConfigError(
      'AUDIT_RETENTION_MONTHS',
      `must be 0 (keep every month) or at least ${AUDIT_MINIMUM_MONTHS} (8 years), got ${audit}`,
    );
  return Object.freeze({
    monthsAhead: int(env, 'PARTITION_MONTHS_AHEAD', 3, 1, 24),
    retentionMonths: Object.freeze({
      audit: kept(audit),
      webhookDeliveries: kept(int(env, 'WEBHOOK_DELIVERY_RETENTION_MONTHS', 2, 0, 1200)),
      jobs: kept(int(env, 'JOB_RETENTION_MONTHS', 4, 0, 1200)),
      doorScans: kept(int(env, 'DOOR_SCAN_RETENTION_MONTHS', 24, 0, 1200)),
    }),
  });
}

export function backgroundSettings(env: Env): {
  workers: boolean;
  jobBatchSize: number;
  partitions: PartitionSettings;
} {
  return {
    workers: bool(env, 'WORKERS', true),
    jobBatchSize: int(env, 'JOB_BATCH_SIZE', 50, 1, 500),
    partitions: partitionSettings(env),
  };
}
