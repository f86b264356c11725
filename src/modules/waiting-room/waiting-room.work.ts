// The waiting room's background work: sending one-time codes.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { Clock } from '../../lib/clock.js';
import type { Mailer } from '../mail/mailer.js';
import { cloudApi } from '../whatsapp/cloud-api.js';
import { codeJob, sendCode, type CodeDeliveryDeps } from './code-delivery.js';

export function waitingRoomWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
}): ModuleWork {
  const { sender, codeTemplate, apiUrl } = deps.config.whatsapp;
  const delivery: CodeDeliveryDeps = {
    db: deps.db,
    clock: deps.clock,
    secretsKey: deps.config.secretsKey,
    mailer: deps.mailer,
    whatsapp:
      sender && codeTemplate
        ? {
            api: cloudApi({ apiUrl, token: sender.token, phoneNumberId: sender.phoneNumberId }),
            template: codeTemplate,
            language: sender.language,
          }
        : undefined,
  };
  return { jobs: [onJob(codeJob, (payload) => sendCode(delivery, payload))] };
}
