// The memberships module's background work: members' mails, refunds of charges, and pruning
// the members-only codes.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Mailer } from '../mail/mailer.js';
import { chargeRefundJob, refundChargeJob } from './charge-refunds.js';
import { memberCodeMailJob, pruneMemberCodes, sendMemberCodeMail } from './member-codes.js';
import {
  membershipConfirmationJob,
  membershipPaymentJob,
  sendConfirmationMail,
  sendPaymentMail,
} from './membership-mail.jobs.js';
import type { MembershipDeps } from './memberships.service.js';

/** A members-only code lapses after minutes; a day later its row is of no use. */
const CODES_KEPT_MS = 86_400_000;

export function membershipsWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  membershipDeps: MembershipDeps;
}): ModuleWork {
  const mail = { db: deps.db, clock: deps.clock, config: deps.config, mailer: deps.mailer };
  return {
    jobs: [
      onJob(membershipConfirmationJob, (payload, job) => sendConfirmationMail(mail, payload, job)),
      onJob(membershipPaymentJob, (payload, job) => sendPaymentMail(mail, payload, job)),
      onJob(memberCodeMailJob, (payload, job) => sendMemberCodeMail(mail, payload, job)),
      onJob(chargeRefundJob, (payload) => refundChargeJob(deps.membershipDeps, payload)),
    ],
    maintenance: [
      {
        name: 'prune member codes',
        everyMs: 3_600_000,
        run: (now) => pruneMemberCodes(deps.db, new Date(now.getTime() - CODES_KEPT_MS)),
      },
    ],
  };
}
