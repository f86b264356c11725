// Test keys play the buyer and the gateway: pay a sandbox order, send the gateway's
// paid notification, move a sandbox subscription. Notifications go through the same
// dispatcher as Razorpay's, so test mode confirms exactly as live mode does.
import type { Config } from '../../config.js';
import { notFound } from '../../lib/errors.js';
import type { GatewayPayment } from '../payments/gateway.js';
import {
  orderPaid,
  subscriptionChanged,
  type GatewayEventDeps,
  type OrderPaidResult,
} from '../gateway-events/gateway-events.service.js';
import { SandboxGateway, SandboxSubscriptions, type SandboxDeps } from './sandbox-gateway.js';

export type SandboxPlayDeps = SandboxDeps & GatewayEventDeps & { config: Pick<Config, 'baseUrl'> };

function orderNotFound() {
  return notFound('no such sandbox order on this account', 'order_not_found');
}

/** The buyer finishing (or failing) the hosted checkout. */
export async function payOrder(
  deps: SandboxDeps,
  accountId: string,
  orderId: string,
  outcome: 'success' | 'failure',
): Promise<GatewayPayment> {
  const payment = await new SandboxGateway(deps, accountId).pay(orderId, outcome);
  if (!payment) throw orderNotFound();
  return payment;
}

/** The gateway's `order.paid`: pays the order unless it is paid, then confirms what it was for. */
export async function notifyOrderPaid(
  deps: SandboxPlayDeps,
  accountId: string,
  orderId: string,
): Promise<{ payment: GatewayPayment; result: OrderPaidResult }> {
  const gateway = new SandboxGateway(deps, accountId);
  const payment = (await gateway.capturedPaymentFor(orderId)) ?? (await gateway.pay(orderId, 'success'));
  if (!payment) throw orderNotFound();
  return { payment, result: await orderPaid(deps, 'test', orderId, payment) };
}

const EVENTS = {
  authenticate: 'authenticated',
  charge: 'charged',
  halt: 'halted',
  cancel: 'cancelled',
} as const;
export type SandboxSubscriptionAction = keyof typeof EVENTS;

/** The gateway's subscription events for a sandbox subscription of this account. */
export async function playSubscriptionEvent(
  deps: SandboxPlayDeps,
  accountId: string,
  subscriptionId: string,
  action: SandboxSubscriptionAction,
): Promise<'applied' | 'ignored'> {
  const subs = new SandboxSubscriptions(deps, accountId, deps.config.baseUrl);
  if (!(await subs.owns(subscriptionId)))
    throw notFound('no such sandbox subscription on this account', 'subscription_not_found');
  const event = EVENTS[action];
  const result = await subscriptionChanged(deps, 'test', subscriptionId, event);
  if (result === 'applied') await subs.setStatus(subscriptionId, event === 'charged' ? 'active' : event);
  // The sandbox's charges carry no gateway payment, so none is ever refunded here.
  return result === 'applied' ? 'applied' : 'ignored';
}
