// The accounts module's background work: the verification, password and publishing mails.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { sendPasswordNoticeJob, sendPasswordResetJob, sendVerificationJob } from './accounts.mails.js';
import { passwordNoticeJob, passwordResetJob, verifyEmailJob } from './accounts.service.js';
import { publishingDecisionJob, sendPublishingDecisionJob } from './publishing.js';
import { sendInvitationJob } from './members.mails.js';
import { inviteMemberJob } from './members.service.js';

export function accountsWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: { baseUrl: string };
  mailer: Mailer;
}): ModuleWork {
  const mail = {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    baseUrl: deps.config.baseUrl,
    mailer: deps.mailer,
  };
  return {
    jobs: [
      onJob(verifyEmailJob, (payload) => sendVerificationJob(mail, payload)),
      onJob(passwordResetJob, (payload) => sendPasswordResetJob(mail, payload)),
      onJob(publishingDecisionJob, (payload) => sendPublishingDecisionJob(mail, payload)),
      onJob(passwordNoticeJob, (payload) => sendPasswordNoticeJob(mail, payload)),
      onJob(inviteMemberJob, (payload) => sendInvitationJob(mail, payload)),
    ],
  };
}
