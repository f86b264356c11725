// The gateway's notifications, whoever relays them (Razorpay's webhook, or the sandbox
// playing the gateway), dispatched to the module that holds the order or subscription.
// This module sits above registrations and memberships; neither knows about the other.
import type { Mode } from '../../db/database.js';
import type { GatewayPayment } from '../payments/gateway.js';
import type { MembershipDeps } from '../memberships/memberships.service.js';
import * as memberships from '../memberships/subscribe.service.js';
import {
  applySubscriptionEvent,
  type SubscriptionEventResult,
} from '../memberships/subscription-events.service.js';
import type { SubscriptionEvent } from '../memberships/subscription-state.js';
import { refundIfStray } from '../reconciliation/stray-payments.js';
import { confirmFromGateway, type RegisterDeps } from '../registrations/register.service.js';

export interface GatewayEventDeps {
  registerDeps: RegisterDeps;
  membershipDeps: MembershipDeps;
}

export type OrderPaidResult = 'confirmed' | 'ignored' | 'sold_out' | 'refunding';

/**
 * An order was paid: it is a ticket booking's or a fixed-term membership's. A captured
 * payment that neither takes (the order was paid already, or its booking or membership
 * ended before it was paid) is refunded in full at once: an order is paid at most once.
 */
export async function orderPaid(
  deps: GatewayEventDeps,
  mode: Mode,
  orderId: string,
  payment: GatewayPayment,
): Promise<OrderPaidResult> {
  const result = await confirmFromGateway(deps.registerDeps, mode, orderId, payment);
  if (result !== 'ignored') return result;
  if ((await memberships.confirmFromGateway(deps.membershipDeps, mode, orderId, payment)) === 'confirmed')
    return 'confirmed';
  return (await refundIfStray(deps.registerDeps, mode, orderId, payment)) ? 'refunding' : 'ignored';
}

/**
 * A subscription moved at the gateway: the membership of that subscription follows. A
 * charge for a membership that ended (or is being ended now) first is refunded (`refunding`).
 */
export async function subscriptionChanged(
  deps: GatewayEventDeps,
  mode: Mode,
  subscriptionId: string,
  event: SubscriptionEvent,
  currentEnd?: Date | null,
  payment?: { id: string; amount: number; captured: boolean },
): Promise<SubscriptionEventResult> {
  const result = await applySubscriptionEvent(
    deps.membershipDeps,
    mode,
    subscriptionId,
    event,
    currentEnd,
    payment,
  );
  deps.membershipDeps.kickJobs();
  return result;
}
