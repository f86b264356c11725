// The organiser records a refund given outside the gateway of a booking paid outside it
// (docs/decisions/24-payment-outside-the-gateway.md): `refund { offline: true }`. Through the
// lifecycle (`refund_offline`): refunded, its seats freed, the ledger's offline refund (the
// platform fee reversed) and the credit note; no gateway is called. In full only. Refunding
// twice answers the refunded booking and writes nothing more.
import type { KeyPrincipal } from '../../http/auth.js';
import { conflict } from '../../lib/errors.js';
import { auditActor, loadOwnedRegistration } from './actions.service.js';
import { changeBooking, refusal } from './lifecycle/change-booking.js';
import type { RegisterDeps } from './register-deps.js';
import * as repo from './registrations.repo.js';
import type { RegistrationRow as Row } from './registrations.repo.js';

const refundedOffline = (reg: Row) => reg.status === 'refunded' && reg.offline_paid !== null;

export async function refundOffline(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  reason: string | undefined,
): Promise<Row> {
  const reg = await loadOwnedRegistration(deps.db, p, eventId, registrationId);
  if (refundedOffline(reg)) return reg;
  if (reg.offline_paid === null)
    throw conflict(
      'nothing_to_refund',
      'only a booking marked paid outside the gateway is refunded with `offline: true`; a gateway payment is refunded at the gateway',
    );
  if (reg.status !== 'confirmed') throw refusal('refund_offline', reg);
  const why = reason?.trim().replace(/\s+/g, ' ') || 'Booking refunded';
  const moved = await deps.db.transaction().execute((trx) =>
    changeBooking(trx, deps, reg, auditActor(reg, { kind: 'key', keyId: p.keyId }), {
      event: 'refund_offline',
      reason: why,
    }),
  );
  deps.kickJobs();
  const now = (await repo.findRegistration(deps.db, reg.id))!;
  if (moved || refundedOffline(now)) return now;
  throw refusal('refund_offline', now);
}
