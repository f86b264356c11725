// The registrations API, one operation per file under routes/. The plugin also keeps every key
// of a JSON body as it was sent (answers are keyed by names organisers choose).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseJsonKeepingEveryKey } from '../../http/json-body.js';
import type { RegisterDeps } from './register.service.js';
import { approveRegistration } from './routes/approve-registration.js';
import { cancelRegistration } from './routes/cancel-registration.js';
import { createPromoCode } from './routes/create-promo-code.js';
import { getRegistration } from './routes/get-registration.js';
import { listPromoCodes } from './routes/list-promo-codes.js';
import { listRegistrations } from './routes/list-registrations.js';
import { markPaidRegistration } from './routes/mark-paid-registration.js';
import { refundRegistration } from './routes/refund-registration.js';
import { register } from './routes/register.js';
import { rejectRegistration } from './routes/reject-registration.js';
import { transferRegistration } from './routes/transfer-registration.js';

export const registrationsRoutes =
  (deps: RegisterDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Answers are keyed by names organisers choose; keep every key as it was sent.
    parseJsonKeepingEveryKey(app);
    for (const operation of [
      register,
      listRegistrations,
      getRegistration,
      approveRegistration,
      markPaidRegistration,
      rejectRegistration,
      cancelRegistration,
      refundRegistration,
      transferRegistration,
      listPromoCodes,
      createPromoCode,
    ])
      operation(app, deps);
  };
