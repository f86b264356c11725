// Which way a paid booking is paid (docs/decisions/24-payment-outside-the-gateway.md): through the
// gateway unless step 1 names one of the event's enabled offline methods. Pure.
import type { OfflineMethod } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { takesOffline } from '../events/offline-payment.js';
import type { OwnedEvent, RegisterInput } from './register-input.js';

/** The offline method asked for, or undefined for the gateway; 400 `payment_method_not_offered` for one the event does not take. */
export function offlineMethod(
  event: Pick<OwnedEvent, 'offline_payment'>,
  input: Pick<RegisterInput, 'paymentMethod'>,
  offered: boolean,
): OfflineMethod | undefined {
  const method = input.paymentMethod;
  if (method === undefined || method === 'gateway') return undefined;
  if (!takesOffline(event.offline_payment, method))
    throw badRequest('payment_method_not_offered', `this event does not take payment by ${method}`, {
      field: 'paymentMethod',
    });
  // An offer's held seat lasts minutes, not the days an offline payment may take.
  if (offered)
    throw badRequest('payment_method_not_offered', 'a waitlist offer is paid through the gateway', {
      field: 'paymentMethod',
    });
  return method;
}
